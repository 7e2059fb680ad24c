import { defineProxyPlugin } from 'model-proxy'
import { alphaProvider } from './provider.ts'
import { alphaCliProvider } from './cli-provider.ts'
import { generateCodec } from './codec/index.ts'
import { addGenerateRoutes } from './routes.ts'

/** alpha family: the generateContent wire format (codec, client endpoints) and its API-key upstream. */
export default defineProxyPlugin({
  name: 'alpha',
  providers: [alphaProvider, alphaCliProvider],
  setup(kernel) {
    kernel.registerFormat(generateCodec)
    addGenerateRoutes(kernel)
  },
})
