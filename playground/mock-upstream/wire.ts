/** Small wire helpers shared by the mock upstreams (JSON replies, SSE frames, auth headers). */

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

/** A named SSE event, as the messages and Responses APIs send them. */
export const sseEvent = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

/** A streamed body made of pre-built frames (each enqueued as its own chunk, like a real upstream). */
export function streamOf(frames: string[], headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder()
  const stream = new ReadableStream({
    start(controller) {
      for (const frame of frames) controller.enqueue(encoder.encode(frame))
      controller.close()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers } })
}

/** The token of an `authorization: Bearer ...` header, if any. */
export function bearerToken(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)/i.exec(request.headers.get('authorization') ?? '')
  return match?.[1]
}

let counter = 0
/** A unique-enough id with the vendor's prefix (`msg_`, `resp_`, `toolu_`...). */
export const mockId = (prefix: string) => `${prefix}mock${Date.now().toString(36)}${(counter++).toString(36)}`

/** Split a string in two non-empty halves (for streamed tool arguments). */
export function halves(text: string): [string, string] {
  const half = Math.max(1, Math.floor(text.length / 2))
  return [text.slice(0, half), text.slice(half)]
}

/** Text of a string or of an array of `{text}` parts (tool results, message content). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map(part => (part as { text?: string }).text ?? '').join('')
  return content === undefined || content === null ? '' : JSON.stringify(content)
}
