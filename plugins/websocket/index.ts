import { defineProxyPlugin } from 'model-proxy'
import { addResponsesSocket } from './responses-socket.ts'
import { addApiSocket } from './api-socket.ts'

/** WebSocket transports: the responses API at `GET /v1/responses` and the envelope API at `/v1/ws`. */
export default defineProxyPlugin({
  name: 'websocket',
  setup(kernel) {
    addResponsesSocket(kernel)
    addApiSocket(kernel)
  },
})
