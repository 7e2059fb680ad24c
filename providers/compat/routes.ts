import type { ProxyKernel } from 'model-proxy'
import { ClientBody } from 'model-proxy/kit/body'
import { addClientRoute, readClientBody, readJsonObject, createProxyRequest, runPipeline } from 'model-proxy/kit/http'
import { chatShape, validateChatRequest } from './validate-chat.ts'
import { chatCodec } from './codec/index.ts'
import { completionsEncoding, decodeCompletionsRequest } from './codec/completions.ts'

/** `POST /v1/chat/completions` and the legacy `POST /v1/completions`. */
export function addChatRoutes(kernel: ProxyKernel): void {
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/chat/completions',
    format: 'chat',
    async handler(event, clientKey) {
      // The client's bytes: what routing and the checks need is read from them, the rest is parsed
      // only when something needs it (a same-format request goes upstream as it came).
      let body: ClientBody | Record<string, unknown> = await readClientBody(event, clientKey)
      // Rule 16: no `messages` but `input`/`instructions` = a responses-format body; treat it as chat.
      if (!body.has('messages') && (body.has('input') || body.has('instructions'))) {
        const responses = kernel.formats.get('responses')
        if (responses) body = chatCodec.request.encode(responses.request.decode(body.object()))
      }
      const request = createProxyRequest(event, { inbound: 'chat', endpoint: 'chat', body, clientKey })
      // The spec's limits, checked on every path on the fields they name (every message's role, not its
      // content); a full decode happens only when translating.
      validateChatRequest(body instanceof ClientBody ? body.skeleton(chatShape) : body)
      return runPipeline(kernel, request)
    },
  })
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/completions',
    format: 'chat',
    async handler(event, clientKey) {
      const raw = await readJsonObject(event)
      const canonical = decodeCompletionsRequest(raw)
      const body = chatCodec.request.encode(canonical)
      const request = createProxyRequest(event, { inbound: 'chat', endpoint: 'chat', body, clientKey })
      request.canonical = canonical
      return runPipeline(kernel, request, { client: completionsEncoding })
    },
  })
}
