import { defineProxyPlugin } from '../../core/plugin.ts'
import { passthroughHeaders } from './filter.ts'

/** `passthrough-headers: true`: filtered upstream response headers reach the client (rule 15). */
export default defineProxyPlugin({
  name: 'passthrough-headers',
  setup(kernel) {
    kernel.hooks.hook('before-response', (ctx) => {
      if (!kernel.config['passthrough-headers'] || !ctx.upstreamHeaders) return
      Object.assign(ctx.responseHeaders, passthroughHeaders(ctx.upstreamHeaders))
    })
  },
})
