import { type ProxyKernel, ProxyError } from 'model-proxy'
import { addClientRoute, readClientBody, readJsonObject, createProxyRequest, runPipeline, jsonResponse } from 'model-proxy/kit/http'
import { countRequestTokens } from 'model-proxy/kit/tokens'
import { checkModelAllowed } from 'model-proxy/kit/access'
import { decodeCountTokens } from './codec/index.ts'

/** `POST /v1/messages` and `/v1/messages/count_tokens`: the messages-format client endpoints. */
export function addMessagesRoutes(kernel: ProxyKernel): void {
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/messages',
    format: 'messages',
    async handler(event, clientKey) {
      // Parsed only if something needs the whole: a same-format upstream gets the client's bytes and
      // validates them itself (its errors reach the client in this same format); translation decodes.
      const request = createProxyRequest(event, { inbound: 'messages', endpoint: 'messages', body: await readClientBody(event, clientKey), clientKey })
      return runPipeline(kernel, request)
    },
  })
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/messages/count_tokens',
    format: 'messages',
    async handler(event, clientKey) {
      const body = await readJsonObject(event)
      if (typeof body.model !== 'string' || !body.model) throw new ProxyError(400, 'model: Field required', 'invalid_request_error')
      checkModelAllowed(kernel, clientKey, body.model)
      return jsonResponse({ input_tokens: await countRequestTokens(decodeCountTokens(body)) })
    },
  })
}
