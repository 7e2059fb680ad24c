import { type ProxyKernel, addClientRoute, readJsonObject, createProxyRequest, runPipeline } from 'model-proxy'
import { validateChatRequest } from './validate-chat.ts'
import { chatCodec } from './codec/index.ts'
import { completionsEncoding, decodeCompletionsRequest } from './codec/completions.ts'

/** `POST /v1/chat/completions` and the legacy `POST /v1/completions`. */
export function addChatRoutes(kernel: ProxyKernel): void {
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/chat/completions',
    format: 'chat',
    async handler(event, clientKey) {
      let body = await readJsonObject(event)
      // Rule 16: no `messages` but `input`/`instructions` = a responses-format body; treat it as chat.
      if (body.messages === undefined && (body.input !== undefined || body.instructions !== undefined)) {
        const responses = kernel.formats.get('responses')
        if (responses) body = chatCodec.request.encode(responses.request.decode(body))
      }
      const request = createProxyRequest(event, { inbound: 'chat', endpoint: 'chat', body, clientKey })
      // Cheap checks of the spec's limits on every path; a full decode happens only when translating.
      validateChatRequest(body)
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
