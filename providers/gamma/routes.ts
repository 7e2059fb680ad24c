import type { ProxyKernel } from 'model-proxy'
import { addClientRoute, readClientBody, createProxyRequest, runPipeline } from 'model-proxy/kit/http'
import { decodeCompact } from './codec/index.ts'

/** `POST /v1/responses` and `/v1/responses/compact`: the responses-format client endpoints. */
export function addResponsesRoutes(kernel: ProxyKernel): void {
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/responses',
    format: 'responses',
    async handler(event, clientKey) {
      // As for messages: parsed only when something needs the whole (providers/beta/routes.ts).
      const request = createProxyRequest(event, { inbound: 'responses', endpoint: 'responses', body: await readClientBody(event, clientKey), clientKey })
      return runPipeline(kernel, request)
    },
  })
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/responses/compact',
    format: 'responses',
    async handler(event, clientKey) {
      const client = await readClientBody(event, clientKey)
      const body = client.object()
      const request = createProxyRequest(event, { inbound: 'responses', endpoint: 'compact', body, clientKey, stream: false, clientBytes: client.bytes })
      request.canonical = decodeCompact(body)
      return runPipeline(kernel, request)
    },
  })
}
