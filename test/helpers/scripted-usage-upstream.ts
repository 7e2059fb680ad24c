import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * An upstream of every family (compat, beta, gamma, alpha, delta: generateContent either way) that answers as a script says. The script
 * rides in the prompt (`probe:<base64url JSON>`), so it survives translation: which usage the upstream
 * reports and where in its stream (`last`: the usual place; `running`: running totals in several events;
 * `early`: once, in the first event; `trailing`: running totals up to the finish, the final counts in one
 * more event after it), or none; a clean close after the first two texts without the rest
 * (`cut`); a pause before each frame (`slowMs`, for clients that leave); and `fail` attempts that fail
 * before any byte (counted per script id, so a failover's next attempt succeeds): `failStatus` as the
 * HTTP status, or (`failKind`) a 200 stream that ends without an event, or whose first event is the
 * family's error with `failStatus` as its code (a whole answer: an empty 200, or the error as its body).
 * A whole answer that is `cut` is half its JSON.
 */
export type ScriptFamily = 'compat' | 'beta' | 'gamma' | 'alpha' | 'delta'
export interface Counts { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number }
export interface Script {
  id: string
  usage: Counts | null
  style: 'last' | 'running' | 'early' | 'trailing'
  cut?: boolean
  failKind?: 'status' | 'empty' | 'error-event'
  /** A pause before the answer's status line (a client may leave before its answer began). */
  holdMs?: number
  /** A stream's 200 at once, then this pause before its first event. */
  firstEventDelayMs?: number
  /** The whole stream, terminal event included, then the connection kept open this long. */
  holdOpenMs?: number
  /** The whole stream, then this pause before the response's end, written on its own. */
  endDelayMs?: number
  /** Counts of zero left out (generateContent) or their details null (chat), as many upstreams send them. */
  sparse?: boolean
  /** After the first two texts, the family's error event instead of the rest. */
  midError?: boolean
  /** responses: the answer ends with `response.incomplete` (a whole answer cut short by its limit). */
  incomplete?: boolean
  /** generateContent: this much of the prompt reported as `toolUsePromptTokenCount`. */
  toolUse?: number
  slowMs?: number
  fail?: number
  failStatus?: number
}

export const scriptPrompt = (script: Script) => `probe:${Buffer.from(JSON.stringify(script)).toString('base64url')} say hi`
const scriptOf = (raw: string): Script | undefined => {
  const match = /probe:([\w-]+)/.exec(raw)
  return match ? JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) : undefined
}

const words = ['Hello', ' from', ' the', ' scripted', ' upstream.']
const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`
/** Running totals: a share of the output so far (the prompt from the start). */
export const part = (u: Counts, share: number): Counts => ({ ...u, output: Math.floor(u.output * share), reasoning: Math.floor(u.reasoning * share) })
type Answer = { json: unknown } | { stream: string[] }

function chat(body: any, s: Script): Answer {
  const details = (key: string, n: number) => s.sparse && !n ? null : { [key]: n }
  const use = (u: Counts) => ({ prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output, prompt_tokens_details: details('cached_tokens', u.cacheRead), completion_tokens_details: details('reasoning_tokens', u.reasoning) })
  const base = { id: 'chatcmpl-p', object: 'chat.completion.chunk', created: 1, model: body.model }
  if (!body.stream) return { json: { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: words.join('') }, finish_reason: 'stop' }], ...(s.usage && { usage: use(s.usage) }) } }
  const u = s.usage
  const running = s.style === 'running' || s.style === 'trailing'
  const usageAt = (i: number, last: boolean) => !u ? {} : running ? { usage: use(last ? u : part(u, i / (words.length + 1))) } : s.style === 'early' && i === 0 ? { usage: use(u) } : { usage: null }
  const frames = words.map((word, i) => sse({ ...base, choices: [{ index: 0, delta: i ? { content: word } : { role: 'assistant', content: word }, finish_reason: null }], ...usageAt(i, false) }))
  frames.push(sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], ...usageAt(words.length, s.style === 'running') }))
  // As the API does: the usage-only chunk only for a request that asked for it.
  if (u && (s.style === 'last' || s.style === 'trailing') && body.stream_options?.include_usage === true) frames.push(sse({ ...base, choices: [], usage: use(u) }))
  frames.push('data: [DONE]\n\n')
  return { stream: frames }
}

function messages(body: any, s: Script): Answer {
  const u = s.usage
  const start = u && { input_tokens: u.input - u.cacheRead - u.cacheWrite, cache_read_input_tokens: u.cacheRead, cache_creation_input_tokens: u.cacheWrite }
  const message = { id: 'msg_p', type: 'message', role: 'assistant', model: body.model, stop_sequence: null }
  if (!body.stream) return { json: { ...message, content: [{ type: 'text', text: words.join('') }], stop_reason: 'end_turn', ...(u && { usage: { ...start, output_tokens: u.output } }) } }
  const first = !u ? {} : { usage: { ...start, output_tokens: s.style === 'early' ? u.output : Math.min(1, u.output) } }
  // `running`: message_delta repeats every count (cumulative), as the API does today.
  const last = !u ? {} : { usage: s.style === 'running' || s.style === 'trailing' ? { ...start, output_tokens: u.output } : { output_tokens: u.output } }
  return {
    stream: [
      sse({ type: 'message_start', message: { ...message, content: [], stop_reason: null, ...first } }, 'message_start'),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      ...words.map(word => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } }, 'content_block_delta')),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, ...last }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
  }
}

const responsesUsage = (u: Counts) => ({ input_tokens: u.input, input_tokens_details: { cached_tokens: u.cacheRead }, output_tokens: u.output, output_tokens_details: { reasoning_tokens: u.reasoning }, total_tokens: u.input + u.output })

function responses(body: any, s: Script): Answer {
  const use = responsesUsage
  const text = words.join('')
  const item = { id: 'msg_p', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }
  const response = { id: 'resp_p', object: 'response', created_at: 1, status: 'completed', model: body.model, output: [item], usage: s.usage ? use(s.usage) : null }
  if (!body.stream) return { json: response }
  let seq = 0
  const event = (type: string, data: Record<string, unknown>) => sse({ type, sequence_number: seq++, ...data }, type)
  return {
    stream: [
      // `early` and `running`: a first count already in response.created (the final one in response.completed).
      event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: s.usage && s.style !== 'last' ? use(part(s.usage, 0)) : null } }),
      event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
      event('response.content_part.added', { output_index: 0, content_index: 0, item_id: 'msg_p', part: { type: 'output_text', text: '', annotations: [] } }),
      ...words.map(word => event('response.output_text.delta', { output_index: 0, content_index: 0, item_id: 'msg_p', delta: word })),
      event('response.output_text.done', { output_index: 0, content_index: 0, item_id: 'msg_p', text }),
      event('response.output_item.done', { output_index: 0, item }),
      s.incomplete ? event('response.incomplete', { response: { ...response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } }) : event('response.completed', { response }),
    ],
  }
}

function generate(model: string, stream: boolean, s: Script): Answer {
  const tool = Math.min(s.toolUse ?? 0, (s.usage?.input ?? 0) - (s.usage?.cacheRead ?? 0))
  const counts = (u: Counts) => ({ promptTokenCount: u.input - tool, cachedContentTokenCount: u.cacheRead, toolUsePromptTokenCount: tool, candidatesTokenCount: u.output - u.reasoning, thoughtsTokenCount: u.reasoning, totalTokenCount: u.input + u.output })
  const use = (u: Counts) => Object.fromEntries(Object.entries(counts(u)).filter(([key, n]) => n || (!s.sparse && key !== 'toolUsePromptTokenCount')))
  const u = s.usage
  const usageAt = (i: number) => {
    const done = i === words.length - 1
    if (!u || (s.style === 'early' && i > 0) || (s.style === 'last' && !done)) return {}
    return { usageMetadata: use((s.style === 'running' && !done) || s.style === 'trailing' ? part(u, i / words.length) : u) }
  }
  const chunk = (text: string, i: number) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(i === words.length - 1 && { finishReason: 'STOP' }) }], ...usageAt(i), modelVersion: model, responseId: 'r_p' })
  if (!stream) return { json: { ...chunk(words.join(''), words.length - 1), usageMetadata: u ? use(u) : undefined } }
  const frames = words.map((word, i) => `data: ${JSON.stringify(chunk(word, i))}\r\n\r\n`)
  // `trailing`: the final counts in a chunk of their own after the finishReason, as some relays send them.
  if (u && s.style === 'trailing') frames.push(`data: ${JSON.stringify({ candidates: [], usageMetadata: use(u), modelVersion: model, responseId: 'r_p' })}\r\n\r\n`)
  return { stream: frames }
}

const errorBody = (status: number) => JSON.stringify({ error: { message: `scripted failure ${status}`, type: status === 400 ? 'invalid_request_error' : 'server_error', code: status } })

/** Each family's error as the first event of a 200 stream, `status` its code (messages: by its name). */
function errorEvent(path: string, status: number): string {
  if (path.endsWith('/messages')) return sse({ type: 'error', error: { type: status === 503 ? 'api_error' : 'api_error', message: 'scripted' } }, 'error')
  if (path.endsWith('/responses')) return sse({ type: 'error', sequence_number: 0, code: String(status), message: 'scripted' }, 'error')
  if (path.endsWith('/chat/completions')) return `data: ${JSON.stringify({ error: { message: 'scripted', type: 'server_error', code: status } })}\n\ndata: [DONE]\n\n`
  return `data: ${JSON.stringify({ error: { code: status, message: 'scripted', status: 'UNAVAILABLE' } })}\r\n\r\n`
}

/**
 * `letGoWhileHeld`: the ids of scripts whose connection the proxy closed while `holdOpenMs` held it open;
 * `connections`: how many TCP connections the proxy opened to it so far.
 */
export interface ScriptedUpstream { url: string; attempts: Map<string, number>; letGoWhileHeld: Set<string>; readonly connections: number; close(): Promise<void> }

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const attempts = new Map<string, number>()
  const letGoWhileHeld = new Set<string>()
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const body = JSON.parse(raw || '{}')
    const script = scriptOf(raw)
    const path = (req.url ?? '').split('?')[0]!
    const generateMatch = /models\/([^:]+):(stream)?[gG]enerateContent/.exec(path)
    if (!script) return void res.writeHead(400, { 'content-type': 'application/json' }).end(errorBody(400))
    const n = (attempts.get(script.id) ?? 0) + 1
    attempts.set(script.id, n)
    if (script.holdMs && n > (script.fail ?? 0)) await new Promise(resolve => setTimeout(resolve, script.holdMs))
    if (n <= (script.fail ?? 0)) {
      const status = script.failStatus ?? 500
      if (!script.failKind || script.failKind === 'status') return void res.writeHead(status, { 'content-type': 'application/json' }).end(errorBody(status))
      // A whole answer: an empty 200, or a 200 whose body is the error.
      if (body.stream !== true && !generateMatch?.[2]) return void res.writeHead(200, { 'content-type': 'application/json' }).end(script.failKind === 'empty' ? '' : errorBody(status))
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      return void res.end(script.failKind === 'empty' ? ': nothing to say\n\n' : errorEvent(path, status))
    }
    const answer = path.endsWith('/chat/completions') ? chat(body, script)
      : path.endsWith('/messages') ? messages(body, script)
        : path.endsWith('/responses') ? responses(body, script)
          : generateMatch ? generate(generateMatch[1]!, !!generateMatch[2], script) : undefined
    if (!answer) return void res.writeHead(404, { 'content-type': 'application/json' }).end(errorBody(404))
    if ('json' in answer) {
      const text = JSON.stringify(answer.json)
      // Cut: half the body, then a clean close.
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(script.cut ? text.slice(0, text.length >> 1) : text)
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    if (script.firstEventDelayMs) {
      res.flushHeaders()
      await new Promise(resolve => setTimeout(resolve, script.firstEventDelayMs))
    }
    const stop = script.cut || script.midError
    const frames = stop ? answer.stream.slice(0, answer.stream.findIndex(frame => frame.includes(' from')) + 1) : answer.stream
    // responses: response.failed alone, with the usage the failed response was billed (when it reports any).
    const failed = () => sse({ type: 'response.failed', sequence_number: 99, response: { id: 'resp_p', object: 'response', status: 'failed', error: { code: 'server_error', message: 'scripted' }, usage: script.usage && responsesUsage(script.usage) } }, 'response.failed')
    if (script.midError) frames.push(path.endsWith('/responses') ? failed() : errorEvent(path, 500))
    for (const frame of frames) {
      if (script.slowMs) await new Promise(resolve => setTimeout(resolve, script.slowMs))
      if (res.destroyed) return
      res.write(frame)
    }
    if (script.endDelayMs) await new Promise(resolve => setTimeout(resolve, script.endDelayMs))
    if (script.holdOpenMs) await new Promise(resolve => { const timer = setTimeout(resolve, script.holdOpenMs); res.once('close', () => { clearTimeout(timer); letGoWhileHeld.add(script.id); resolve(undefined) }) })
    res.end()
  })
  let connections = 0
  server.on('connection', () => { connections++ })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, attempts, letGoWhileHeld, get connections() { return connections }, close: () => new Promise(resolve => { server.closeAllConnections(); server.close(() => resolve()) }) }
}
