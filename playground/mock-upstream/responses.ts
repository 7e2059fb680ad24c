import { lastUserText, mockTurn, roughTokens } from './reply.ts'
import { responseEvents, type OutputItem } from './responses-stream.ts'
import { bearerToken, json, mockId, streamOf, textOf } from './wire.ts'

interface InputItem { type?: string; role?: string; content?: unknown; call_id?: string; output?: unknown }
interface ResponsesBody {
  model?: string
  input?: string | InputItem[]
  instructions?: string
  tools?: Array<{ type?: string; name?: string }>
  tool_choice?: unknown
  stream?: boolean
  store?: boolean
  max_output_tokens?: number
  reasoning?: { effort?: string | null; summary?: string | null }
}

const error = (status: number, message: string, param: string | null = null, code: string | null = null) =>
  json({ error: { message, type: 'invalid_request_error', param, code } }, status)

/**
 * A mock Responses-API upstream (`POST /v1/responses`, `GET /v1/models`) as a fetch handler, speaking the
 * vendor's exact wire format (typed output items, `sequence_number`ed SSE events).
 */
export async function responsesMock(request: Request, basePath = ''): Promise<Response> {
  const path = new URL(request.url).pathname.slice(basePath.length)
  if (!bearerToken(request)) {
    return error(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
  }
  if (request.method === 'GET' && path === '/v1/models') return json({ object: 'list', data: [{ id: 'mock-responses', object: 'model', created: 0, owned_by: 'mock' }] })
  if (request.method !== 'POST' || path !== '/v1/responses') return error(404, `Invalid URL (${request.method} ${path})`)
  const body = await request.json() as ResponsesBody
  if (!body.model) return error(400, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter')

  const items: InputItem[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input ?? []
  const messages = items.filter(item => (item.type ?? 'message') === 'message')
  const last = items.at(-1)
  const toolResult = last?.type === 'function_call_output' ? textOf(last.output) : undefined
  const names = (body.tools ?? []).filter(tool => tool.type === 'function' && tool.name).map(tool => tool.name!)
  const turn = mockTurn(lastUserText(messages), names, toolResult)

  const output: OutputItem[] = []
  if (body.reasoning?.effort) {
    output.push({ id: mockId('rs_'), type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking.' }], encrypted_content: mockId('enc-mock-') })
  }
  if (turn.text) {
    output.push({ type: 'message', id: mockId('msg_'), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: turn.text, annotations: [] }] })
  }
  if (turn.toolCall) {
    output.push({ type: 'function_call', id: mockId('fc_'), call_id: mockId('call_'), name: turn.toolCall.name, arguments: turn.toolCall.arguments, status: 'completed' })
  }
  const inputTokens = roughTokens(JSON.stringify([body.instructions ?? '', body.input ?? '', body.tools ?? []]))
  const reasoningTokens = body.reasoning?.effort ? roughTokens('Thinking.') : 0
  const outputTokens = roughTokens(turn.text ?? turn.toolCall!.arguments) + reasoningTokens
  const base = {
    id: mockId('resp_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
    store: body.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: reasoningTokens },
      total_tokens: inputTokens + outputTokens,
    },
    user: null,
    metadata: {},
  }
  if (!body.stream) return json(base)
  return streamOf(responseEvents(base))
}
