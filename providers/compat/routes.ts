import type { ProxyKernel } from '../../core/kernel.ts'
import type { ProxyRequest } from '../../core/hooks.ts'
import { addClientRoute, readJsonObject } from '../../core/http/client-route.ts'
import { ProxyError } from '../../core/http/errors.ts'
import { runPipeline } from '../../core/pipeline/run.ts'

/** `POST /v1/chat/completions`: the chat-completions client endpoint. */
export function addChatRoutes(kernel: ProxyKernel): void {
  addClientRoute(kernel, {
    method: 'POST',
    path: '/v1/chat/completions',
    format: 'chat',
    async handler(event, clientKey) {
      const body = await readJsonObject(event)
      if (typeof body.model !== 'string' || !body.model) throw new ProxyError(400, 'you must provide a model parameter', 'invalid_request_error', 'missing_model')
      if (!Array.isArray(body.messages)) throw new ProxyError(400, "'messages' is a required property and must be an array", 'invalid_request_error', 'invalid_messages')
      const request: ProxyRequest = {
        id: crypto.randomUUID(),
        event,
        inbound: 'chat',
        endpoint: 'chat',
        model: body.model,
        stream: body.stream === true,
        body,
        clientKey,
        startedAt: Date.now(),
      }
      return runPipeline(kernel, request)
    },
  })
}
