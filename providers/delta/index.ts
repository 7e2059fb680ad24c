import { defineProxyPlugin } from 'model-proxy'
import { deltaProvider } from './provider.ts'

/** delta family: generateContent through the cloud platform (the alpha plugin owns the format and routes). */
export default defineProxyPlugin({
  name: 'delta',
  providers: [deltaProvider],
})
