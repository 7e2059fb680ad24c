import { defineProxyPlugin } from 'model-proxy'
import { betaProvider } from './provider.ts'
import { messagesCodec } from './codec/index.ts'
import { addMessagesRoutes } from './routes.ts'

/** beta family: the messages wire format (codec, client endpoints) and its API-key upstream. */
export default defineProxyPlugin({
  name: 'beta',
  providers: [betaProvider],
  setup(kernel) {
    kernel.registerFormat(messagesCodec)
    addMessagesRoutes(kernel)
  },
})
