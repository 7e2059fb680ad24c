import { defineProxyPlugin } from 'model-proxy'
import { compatProvider } from './provider.ts'
import { chatCodec } from './codec/index.ts'
import { addChatRoutes } from './routes.ts'

/** compat family: the chat-completions wire format (codec, client endpoints) and OpenAI-compatible upstreams. */
export default defineProxyPlugin({
  name: 'compat',
  providers: [compatProvider],
  setup(kernel) {
    kernel.registerFormat(chatCodec)
    addChatRoutes(kernel)
  },
})
