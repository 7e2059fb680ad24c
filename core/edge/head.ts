import type { H3, H3Event } from 'h3'

/** A HEAD answered as its GET without the body (the JSON 404 route matches every path, so h3's HEAD fallback never runs). */
export async function answerHead(app: H3, event: H3Event): Promise<Response> {
  const get = new Request(event.req.url, { method: 'GET', headers: event.req.headers, signal: event.req.signal })
  // The GET keeps the connection's facts, so access checks decide the same.
  const source = event.req as Request & { ip?: string; runtime?: unknown }
  Object.defineProperties(get, { ip: { value: source.ip }, runtime: { value: source.runtime } })
  const response = await app.fetch(get)
  // A stream (an event feed) is closed at once: HEAD wants the headers only.
  await response.body?.cancel().catch(() => {})
  return new Response(null, { status: response.status, headers: response.headers })
}
