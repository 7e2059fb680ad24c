import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A scripted upstream of every family that reports known usage, cache reads, cache writes and reasoning
 * tokens included, in each family's own fields, streaming and not. What a proxy settles a request with
 * must be exactly `scriptedUsage[family]` (in canonical terms: input counts every prompt token, output
 * counts reasoning). generateContent under the cloud relay's `/publishers/google/models/` paths is the
 * delta family, with its own numbers. A model whose name ends in `-cut` streams its first text and then closes the
 * connection cleanly, without the rest, its usage or its terminal event. One ending in `-hold` sends its
 * whole stream, terminal event included, and keeps the connection open a while before it ends it (a
 * client can leave after the answer and before the upstream's end). `-reset` resets the connection
 * where `-cut` closes it; `-reset-end` sends the whole stream and then resets the connection instead of
 * ending it. `-slow` sends a frame every 100 ms.
 */
export type UsageFamily = 'compat' | 'beta' | 'gamma' | 'alpha' | 'delta'

export interface ScriptedUsage { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number }

/** Per family what it reports (chat and generateContent have no cache-write count; messages no reasoning count). */
export const scriptedUsage: Record<UsageFamily, ScriptedUsage> = {
  compat: { input: 1000, output: 50, cacheRead: 600, cacheWrite: 0, reasoning: 20 },
  beta: { input: 1000, output: 50, cacheRead: 600, cacheWrite: 100, reasoning: 0 },
  gamma: { input: 1000, output: 50, cacheRead: 600, cacheWrite: 0, reasoning: 20 },
  alpha: { input: 1000, output: 50, cacheRead: 600, cacheWrite: 0, reasoning: 20 },
  // The cloud relay of generateContent: the same fields, its own numbers (so a mix-up with alpha shows).
  delta: { input: 2000, output: 80, cacheRead: 1200, cacheWrite: 0, reasoning: 30 },
}

const words = ['Hello', ' from', ' the', ' scripted', ' upstream.']
const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`

function chat(body: any): { stream: string[] } | { json: unknown } {
  const u = scriptedUsage.compat
  const usage = { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output, prompt_tokens_details: { cached_tokens: u.cacheRead }, completion_tokens_details: { reasoning_tokens: u.reasoning } }
  const base = { id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 1, model: body.model }
  if (!body.stream) return { json: { id: 'chatcmpl-s', object: 'chat.completion', created: 1, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: words.join('') }, finish_reason: 'stop' }], usage } }
  // As the API does: with include_usage every chunk says `usage: null`, and a last chunk without choices carries it.
  const asked = body.stream_options?.include_usage === true
  const extra = asked ? { usage: null } : {}
  const frames = words.map((word, i) => sse({ ...base, choices: [{ index: 0, delta: i ? { content: word } : { role: 'assistant', content: word }, finish_reason: null }], ...extra }))
  frames.push(sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], ...extra }))
  if (asked) frames.push(sse({ ...base, choices: [], usage }))
  frames.push('data: [DONE]\n\n')
  return { stream: frames }
}

function messages(body: any): { stream: string[] } | { json: unknown } {
  const u = scriptedUsage.beta
  const plainInput = u.input - u.cacheRead - u.cacheWrite
  const usage = { input_tokens: plainInput, cache_read_input_tokens: u.cacheRead, cache_creation_input_tokens: u.cacheWrite, output_tokens: u.output }
  const message = { id: 'msg_s', type: 'message', role: 'assistant', model: body.model, stop_reason: null, stop_sequence: null }
  if (!body.stream) return { json: { ...message, content: [{ type: 'text', text: words.join('') }], stop_reason: 'end_turn', usage } }
  return {
    stream: [
      sse({ type: 'message_start', message: { ...message, content: [], usage: { ...usage, output_tokens: 1 } } }, 'message_start'),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      ...words.map(word => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } }, 'content_block_delta')),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: u.output } }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
  }
}

function responses(body: any): { stream: string[] } | { json: unknown } {
  const u = scriptedUsage.gamma
  const usage = { input_tokens: u.input, input_tokens_details: { cached_tokens: u.cacheRead }, output_tokens: u.output, output_tokens_details: { reasoning_tokens: u.reasoning }, total_tokens: u.input + u.output }
  const text = words.join('')
  const item = { id: 'msg_s', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }
  const response = { id: 'resp_s', object: 'response', created_at: 1, status: 'completed', model: body.model, output: [item], usage }
  if (!body.stream) return { json: response }
  let seq = 0
  const event = (type: string, data: Record<string, unknown>) => sse({ type, sequence_number: seq++, ...data }, type)
  return {
    stream: [
      event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } }),
      event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
      event('response.content_part.added', { output_index: 0, content_index: 0, item_id: 'msg_s', part: { type: 'output_text', text: '', annotations: [] } }),
      ...words.map(word => event('response.output_text.delta', { output_index: 0, content_index: 0, item_id: 'msg_s', delta: word })),
      event('response.output_text.done', { output_index: 0, content_index: 0, item_id: 'msg_s', text }),
      event('response.output_item.done', { output_index: 0, item }),
      event('response.completed', { response }),
    ],
  }
}

function generate(model: string, stream: boolean, family: 'alpha' | 'delta'): { stream: string[] } | { json: unknown } {
  const u = scriptedUsage[family]
  const usage = (done: boolean) => done
    ? { promptTokenCount: u.input, cachedContentTokenCount: u.cacheRead, candidatesTokenCount: u.output - u.reasoning, thoughtsTokenCount: u.reasoning, totalTokenCount: u.input + u.output }
    : { promptTokenCount: u.input, cachedContentTokenCount: u.cacheRead, totalTokenCount: u.input }
  const chunk = (text: string, done: boolean) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(done && { finishReason: 'STOP' }) }], usageMetadata: usage(done), modelVersion: model, responseId: 'r_s' })
  if (!stream) return { json: chunk(words.join(''), true) }
  // As the API does: every chunk carries the running usage, the last one the final counts.
  return { stream: words.map((word, i) => `data: ${JSON.stringify(chunk(word, i === words.length - 1))}\r\n\r\n`) }
}

export interface UsageUpstream { url: string; requests: Array<{ url: string; body: any }>; close(): Promise<void> }

/** `frameDelayMs`: a pause before each stream frame (the answer stays in flight a while). */
export async function startUsageUpstream(options: { frameDelayMs?: number } = {}): Promise<UsageUpstream> {
  const requests: UsageUpstream['requests'] = []
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
    const url = req.url ?? ''
    requests.push({ url, body })
    const path = url.split('?')[0]!
    const generateMatch = /models\/([^:]+):(stream)?[gG]enerateContent/.exec(path)
    const answer = path.endsWith('/chat/completions') ? chat(body)
      : path.endsWith('/messages') ? messages(body)
        : path.endsWith('/responses') ? responses(body)
          : generateMatch ? generate(generateMatch[1]!, !!generateMatch[2], path.includes('/publishers/google/') ? 'delta' : 'alpha')
            : undefined
    if (!answer) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
    if ('json' in answer) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json))
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const model = String(body.model ?? generateMatch?.[1] ?? '')
    const cut = model.endsWith('-cut') || model.endsWith('-reset')
    const frames = cut ? answer.stream.slice(0, answer.stream.findIndex(frame => frame.includes(' from')) + 1) : answer.stream
    const delay = model.endsWith('-slow') ? 100 : options.frameDelayMs
    for (const frame of frames) {
      if (delay) await new Promise(resolve => setTimeout(resolve, delay))
      if (res.destroyed) return
      res.write(frame)
    }
    // Once the frames are out (a reset at once could overtake them).
    if (model.endsWith('-reset') || model.endsWith('-reset-end')) return void setTimeout(() => res.destroy(), 50)
    if (model.endsWith('-hold')) await new Promise(resolve => { const timer = setTimeout(resolve, 1500); res.once('close', () => { clearTimeout(timer); resolve(undefined) }) })
    res.end()
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, requests, close: () => new Promise(resolve => { server.closeAllConnections(); server.close(() => resolve()) }) }
}
