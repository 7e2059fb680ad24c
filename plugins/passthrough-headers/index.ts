import { defineProxyPlugin } from 'model-proxy'
import { scrubSecrets } from 'model-proxy/kit/access'
import { passthroughHeaders } from './filter.ts'

/** `passthrough-headers: true`: filtered upstream response headers reach the client. */
export default defineProxyPlugin({
  name: 'passthrough-headers',
  setup(kernel) {
    kernel.hooks.hook('before-response', (ctx) => {
      if (!kernel.config['passthrough-headers'] || !ctx.upstreamHeaders) return
      const headers = passthroughHeaders(ctx.upstreamHeaders)
      // An upstream quoting the credential it was sent (a debug header) must not hand it to the client.
      if (ctx.candidate) for (const name in headers) headers[name] = scrubSecrets(headers[name]!, ctx.candidate.credential)
      Object.assign(ctx.responseHeaders, headers)
    })
  },
})
