import { defineProxyPlugin } from 'model-proxy'
import { gammaProvider } from './provider.ts'
import { responsesCodec } from './codec/index.ts'
import { addResponsesRoutes } from './routes.ts'

/** gamma family: the responses wire format (codec, client endpoints) and its API-key upstream. */
export default defineProxyPlugin({
  name: 'gamma',
  providers: [gammaProvider],
  setup(kernel) {
    kernel.registerFormat(responsesCodec)
    addResponsesRoutes(kernel)
  },
})
