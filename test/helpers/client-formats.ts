/** Minimal requests of every client format, and how each format ends a stream with an error. */

export type ClientFormat = 'chat' | 'completions' | 'messages' | 'responses' | 'generate-sse' | 'generate-array'
export const clientFormats: ClientFormat[] = ['chat', 'messages', 'responses', 'generate-sse', 'generate-array']

export interface ClientCall { path: string; body: Record<string, unknown> }

/** Path and body of a request for `model` (generate-array is always a stream: the JSON-array form). */
export function clientCall(format: ClientFormat, model: string, stream: boolean, said = 'hi'): ClientCall {
  switch (format) {
    case 'chat': return { path: '/v1/chat/completions', body: { model, stream, messages: [{ role: 'user', content: said }] } }
    case 'completions': return { path: '/v1/completions', body: { model, stream, prompt: said } }
    case 'messages': return { path: '/v1/messages', body: { model, stream, max_tokens: 200, messages: [{ role: 'user', content: said }] } }
    case 'responses': return { path: '/v1/responses', body: { model, stream, input: said } }
    case 'generate-sse':
    case 'generate-array': {
      const method = !stream ? 'generateContent' : format === 'generate-sse' ? 'streamGenerateContent?alt=sse' : 'streamGenerateContent'
      return { path: `/v1beta/models/${encodeURIComponent(model)}:${method}`, body: { contents: [{ role: 'user', parts: [{ text: said }] }] } }
    }
  }
}

export const clientHeaders = (key: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key })

/** POST the minimal request of `format` to a proxy and read the whole answer (10 s at most). */
export async function callClient(baseUrl: string, format: ClientFormat, model: string, stream: boolean, key = 'k') {
  const { path, body } = clientCall(format, model, stream)
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: clientHeaders(key), body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

export interface SseFrame { event?: string; data: string }

/** Parse SSE text strictly enough to notice a broken frame (lines end with `\n`, `\r\n` or `\r`; a blank line ends an event). */
export function parseSseFrames(text: string): SseFrame[] {
  const frames: SseFrame[] = []
  let block: string[] = []
  const flush = () => {
    const lines = block.filter(line => !line.startsWith(':'))
    block = []
    if (!lines.length) return
    const event = lines.find(line => line.startsWith('event:'))?.slice(6).trim()
    const data = lines.filter(line => line.startsWith('data:')).map(line => line.slice(5).trimStart()).join('\n')
    frames.push(event === undefined ? { data } : { event, data })
  }
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line) block.push(line)
    else flush()
  }
  flush()
  return frames
}

/**
 * Whether a streamed body in `format` ended with that format's error and a proper end of stream:
 * chat `data: {"error":{...}}` then `data: [DONE]`; messages `event: error`; responses `error` then
 * `response.failed`; generateContent an `{error:{code,message,status}}` element, last. Returns a reason when not.
 */
export function streamErrorEnding(format: ClientFormat, text: string): string | undefined {
  if (format === 'generate-array') {
    let items: unknown
    try { items = JSON.parse(text) } catch (error) { return `not a JSON array: ${(error as Error).message}` }
    if (!Array.isArray(items)) return 'not an array'
    const last = items.at(-1) as { error?: { code?: unknown; message?: unknown; status?: unknown } } | undefined
    return typeof last?.error?.message === 'string' && typeof last.error.code === 'number' && typeof last.error.status === 'string' ? undefined : 'last element is not an error'
  }
  const frames = parseSseFrames(text)
  for (const frame of frames) {
    if (frame.data === '[DONE]') continue
    try { JSON.parse(frame.data) } catch { return `broken frame: ${JSON.stringify(frame.data.slice(0, 80))}` }
  }
  const last = frames.at(-1)
  const json = (frame: SseFrame | undefined) => frame && frame.data !== '[DONE]' ? JSON.parse(frame.data) : undefined
  switch (format) {
    case 'chat':
    case 'completions': {
      if (last?.data !== '[DONE]') return 'does not end with [DONE]'
      const error = json(frames.at(-2))?.error
      return typeof error?.message === 'string' && typeof error.type === 'string' ? undefined : 'no error chunk before [DONE]'
    }
    case 'messages': {
      const body = json(last)
      return last?.event === 'error' && body?.type === 'error' && typeof body.error?.type === 'string' && typeof body.error?.message === 'string' ? undefined : 'last event is not event: error'
    }
    case 'responses': {
      const error = frames.at(-2)
      return error?.event === 'error' && last?.event === 'response.failed' && json(last)?.response?.status === 'failed' ? undefined : 'does not end with error + response.failed'
    }
    case 'generate-sse': {
      const error = json(last)?.error
      return typeof error?.message === 'string' && typeof error.code === 'number' && typeof error.status === 'string' ? undefined : 'last event is not an error object'
    }
  }
}

/** Whether a streamed body in `format` ended normally (the format's own last event), and every frame parses. */
export function streamCompleted(format: ClientFormat, text: string): string | undefined {
  if (format === 'generate-array') {
    try {
      const items = JSON.parse(text) as Array<{ error?: unknown }>
      return Array.isArray(items) && items.length && !items.some(item => item.error) ? undefined : 'empty array or an error element'
    } catch (error) { return `not a JSON array: ${(error as Error).message}` }
  }
  const frames = parseSseFrames(text)
  for (const frame of frames) {
    if (frame.data === '[DONE]') continue
    try {
      if (JSON.parse(frame.data).error) return `error frame: ${frame.data.slice(0, 200)}`
    } catch { return `broken frame: ${JSON.stringify(frame.data.slice(0, 80))}` }
  }
  const last = frames.at(-1)
  switch (format) {
    case 'chat':
    case 'completions': return last?.data === '[DONE]' ? undefined : 'no [DONE]'
    case 'messages': return last?.event === 'message_stop' ? undefined : 'no message_stop'
    case 'responses': return last?.event === 'response.completed' ? undefined : 'no response.completed'
    case 'generate-sse': return last && JSON.parse(last.data).candidates?.[0]?.finishReason ? undefined : 'no finishReason'
  }
}
