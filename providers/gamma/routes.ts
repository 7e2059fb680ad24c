import type { ProxyKernel } from 'model-proxy'
import { addClientRoute, readClientBody, readJsonObject, createProxyRequest, runPipeline, jsonResponse } from 'model-proxy/kit/http'
import { countRequestTokens } from 'model-proxy/kit/tokens'
import { checkModelAllowed } from 'model-proxy/kit/access'
import { decodeCompact, decodeInputTokens } from './codec/index.ts'

/** `POST /v1/responses`, `/v1/responses/compact` and `/v1/responses/input_tokens`: the responses-format client endpoints. */
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
  // Counted here, as count_tokens and :countTokens are (docs/endpoints.md): no upstream call, no credential spent.
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/responses/input_tokens',
    format: 'responses',
    async handler(event, clientKey) {
      const body = await readJsonObject(event)
      if (typeof body.model === 'string' && body.model) checkModelAllowed(kernel, clientKey, body.model)
      const request = decodeInputTokens(body)
      return jsonResponse({ object: 'response.input_tokens', input_tokens: request ? await countRequestTokens(request) : 0 })
    },
  })
}
