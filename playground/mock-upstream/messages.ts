import { lastUserText, mockTurn, roughTokens, toDeltas } from './reply.ts'
import { bearerToken, halves, json, mockId, sseEvent, streamOf, textOf } from './wire.ts'

interface Block { type?: string; text?: string; content?: unknown; tool_use_id?: string }
interface MessagesBody {
  model?: string
  max_tokens?: number
  stream?: boolean
  system?: unknown
  messages?: Array<{ role?: string; content?: string | Block[] }>
  tools?: Array<{ name?: string }>
  thinking?: { type?: string }
}

type ContentBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }

const error = (status: number, type: string, message: string) => json({ type: 'error', error: { type, message } }, status)

/** The tool result the last user turn carries, if it is a `tool_result` turn. */
function lastToolResult(messages: NonNullable<MessagesBody['messages']>): string | undefined {
  const last = messages.at(-1)
  if (last?.role !== 'user' || !Array.isArray(last.content)) return undefined
  const results = last.content.filter(block => block.type === 'tool_result')
  return results.length ? results.map(block => textOf(block.content)).join('\n') : undefined
}

const inputTokens = (body: MessagesBody) => roughTokens(JSON.stringify([body.system ?? '', body.messages ?? [], body.tools ?? []]))

/**
 * A mock messages-API upstream (`/v1/messages`, `/v1/messages/count_tokens`, `/v1/models`) as a fetch
 * handler, speaking the vendor's exact wire format (named SSE events, content blocks, usage).
 */
export async function messagesMock(request: Request, basePath = ''): Promise<Response> {
  const path = new URL(request.url).pathname.slice(basePath.length)
  if (!request.headers.get('x-api-key') && !bearerToken(request)) return error(401, 'authentication_error', 'x-api-key header is required')
  if (request.method === 'GET' && path === '/v1/models') {
    const model = { type: 'model', id: 'mock-claude', display_name: 'Mock Claude', created_at: '2025-01-01T00:00:00Z' }
    return json({ data: [model], has_more: false, first_id: model.id, last_id: model.id })
  }
  if (request.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) return error(404, 'not_found_error', 'Not found')
  const body = await request.json() as MessagesBody
  if (!body.model) return error(400, 'invalid_request_error', 'model: Field required')
  if (!Array.isArray(body.messages)) return error(400, 'invalid_request_error', 'messages: Field required')
  if (path === '/v1/messages/count_tokens') return json({ input_tokens: inputTokens(body) })
  if (typeof body.max_tokens !== 'number') return error(400, 'invalid_request_error', 'max_tokens: Field required')

  const names = (body.tools ?? []).map(tool => tool.name ?? '').filter(Boolean)
  const turn = mockTurn(lastUserText(body.messages), names, lastToolResult(body.messages))
  const thinking = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive'
  const content: ContentBlock[] = []
  if (thinking) content.push({ type: 'thinking', thinking: 'Let me think.', signature: mockId('sig-mock-') })
  if (turn.text) content.push({ type: 'text', text: turn.text })
  if (turn.toolCall) content.push({ type: 'tool_use', id: mockId('toolu_'), name: turn.toolCall.name, input: JSON.parse(turn.toolCall.arguments) })
  const stopReason = turn.toolCall ? 'tool_use' : 'end_turn'
  const outputTokens = roughTokens(turn.text ?? turn.toolCall!.arguments) + (thinking ? roughTokens('Let me think.') : 0)
  const usage = { input_tokens: inputTokens(body), output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
  const message = { id: mockId('msg_'), type: 'message', role: 'assistant', model: body.model }
  const headers = { 'request-id': mockId('req_') }

  if (!body.stream) return json({ ...message, content, stop_reason: stopReason, stop_sequence: null, usage }, 200, headers)

  const frames = [sseEvent('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } })]
  content.forEach((block, index) => {
    const delta = (payload: unknown) => frames.push(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta: payload }))
    const start = block.type === 'thinking' ? { type: 'thinking', thinking: '', signature: '' }
      : block.type === 'text' ? { type: 'text', text: '' }
        : { type: 'tool_use', id: block.id, name: block.name, input: {} }
    frames.push(sseEvent('content_block_start', { type: 'content_block_start', index, content_block: start }))
    if (index === 0) frames.push(sseEvent('ping', { type: 'ping' }))
    if (block.type === 'thinking') {
      delta({ type: 'thinking_delta', thinking: block.thinking })
      delta({ type: 'signature_delta', signature: block.signature })
    } else if (block.type === 'text') {
      for (const piece of toDeltas(block.text)) delta({ type: 'text_delta', text: piece })
    } else {
      // The real API opens a tool_use block with an empty partial_json, then streams the JSON in pieces.
      for (const piece of ['', ...halves(JSON.stringify(block.input))]) delta({ type: 'input_json_delta', partial_json: piece })
    }
    frames.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }))
  })
  frames.push(sseEvent('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }))
  frames.push(sseEvent('message_stop', { type: 'message_stop' }))
  return streamOf(frames, headers)
}
