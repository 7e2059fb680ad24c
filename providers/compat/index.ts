import { defineProxyPlugin } from '../../core/plugin.ts'
import { compatProvider } from './provider.ts'
import { addChatRoutes } from './routes.ts'

/** compat family: OpenAI-compatible upstreams (`compat-provider`) and the chat-completions client endpoints. */
export default defineProxyPlugin({
  name: 'compat',
  setup(kernel) {
    kernel.registerProvider(compatProvider)
    addChatRoutes(kernel)
  },
})
