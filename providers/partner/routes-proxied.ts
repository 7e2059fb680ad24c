import type { ProxyKernel } from 'model-proxy'
import { errorResponse, toErrorInfo } from 'model-proxy/kit/errors'
import { authorizePartnerClient } from './access.ts'
import { sendToPartner } from './send-to-partner.ts'

/** Spec "Partner routes": proxied to the partner upstream as they are (`/x/**` matches `/x` too). */
export const proxiedRoutes = [
  '/api/auth/**', '/api/user/**', '/api/internal/**', '/api/meta/**', '/api/threads/**', '/api/telemetry/**', '/api/otel/**', '/api/tab/**',
  '/threads/**', '/docs/**', '/settings/**', '/auth/**',
]

/** Every method, query, body and stream passed through; client key required; localhost only when restricted. */
export function addProxiedRoutes(kernel: ProxyKernel): void {
  for (const route of proxiedRoutes) {
    kernel.app.all(route, async (event) => {
      try {
        const clientKey = authorizePartnerClient(kernel, event, true)
        kernel.logger.debug(`partner: ${event.req.method} ${event.url.pathname} -> partner upstream`)
        return await sendToPartner(kernel, event, { clientKey })
      } catch (error) {
        const info = toErrorInfo(error)
        if (info.status >= 500) kernel.logger.warn(`partner: ${event.req.method} ${event.url.pathname}: ${info.message}`)
        return errorResponse(kernel, undefined, info)
      }
    })
  }
}
