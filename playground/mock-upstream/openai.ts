import { lastUserText, mockTurn, roughTokens, toDeltas } from './reply.ts'
import { textOf } from './wire.ts'

interface ChatBody {
  model?: string
  stream?: boolean
  messages?: Array<{ role?: string; content?: unknown }>
  tools?: Array<{ function?: { name?: string } }>
  stream_options?: { include_usage?: boolean }
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** A mock OpenAI-compatible upstream (`/v1/chat/completions`, `/v1/models`) as a fetch handler. */
export async function openaiMock(request: Request, basePath = ''): Promise<Response> {
  const path = new URL(request.url).pathname.slice(basePath.length)
  if (request.method === 'GET' && path === '/v1/models') return json({ object: 'list', data: [{ id: 'mock-gpt', object: 'model', created: 0, owned_by: 'mock' }] })
  if (request.method !== 'POST' || path !== '/v1/chat/completions') return json({ error: { message: 'not found', type: 'invalid_request_error' } }, 404)
  const body = await request.json() as ChatBody
  if (!body.model) return json({ error: { message: 'model is required', type: 'invalid_request_error', code: null } }, 400)
  const messages = body.messages ?? []
  const last = messages.at(-1)
  // A tool message's content is a string or an array of text parts.
  const toolResult = last?.role === 'tool' ? textOf(last.content) : undefined
  const turn = mockTurn(lastUserText(messages), (body.tools ?? []).map(tool => tool.function?.name ?? '').filter(Boolean), toolResult)
  const id = `chatcmpl-mock${Date.now()}`
  const created = Math.floor(Date.now() / 1000)
  const promptTokens = roughTokens(JSON.stringify(messages))
  const completionTokens = roughTokens(turn.text ?? turn.toolCall!.arguments)
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens }
  const toolCalls = turn.toolCall ? [{ id: `call_mock_${created}`, type: 'function', function: turn.toolCall }] : undefined
  const finish = toolCalls ? 'tool_calls' : 'stop'

  if (!body.stream) {
    return json({
      id, object: 'chat.completion', created, model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: turn.text ?? null, ...(toolCalls && { tool_calls: toolCalls }) }, finish_reason: finish }],
      usage,
    })
  }
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`
  const frames = [chunk({ role: 'assistant', content: '' })]
  if (turn.text) for (const piece of toDeltas(turn.text)) frames.push(chunk({ content: piece }))
  if (turn.toolCall) {
    const args = turn.toolCall.arguments
    const half = Math.floor(args.length / 2)
    frames.push(chunk({ tool_calls: [{ index: 0, id: toolCalls![0]!.id, type: 'function', function: { name: turn.toolCall.name, arguments: args.slice(0, half) } }] }))
    frames.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }))
  }
  frames.push(chunk({}, finish))
  if (body.stream_options?.include_usage) frames.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`)
  frames.push('data: [DONE]\n\n')
  const encoder = new TextEncoder()
  const stream = new ReadableStream({
    start(controller) {
      for (const frame of frames) controller.enqueue(encoder.encode(frame))
      controller.close()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } })
}
