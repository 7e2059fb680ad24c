import { defineProxyPlugin } from 'model-proxy'
import { withSseKeepalive } from './sse-keepalive.ts'

/** `streaming.keepalive-seconds`: SSE comments while a stream is open and quiet (0 = off). */
export default defineProxyPlugin({
  name: 'keepalive',
  setup(kernel) {
    kernel.hooks.hook('before-response', (ctx) => {
      const seconds = kernel.config.streaming['keepalive-seconds']
      if (seconds > 0 && ctx.stream && ctx.sse) ctx.stream = withSseKeepalive(ctx.stream, seconds)
    })
  },
})
