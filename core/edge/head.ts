import type { H3, H3Event } from 'h3'

/**
 * A HEAD request answered as its GET would be, without the body. h3 answers HEAD from a GET route only
 * when no route matches a HEAD at all, and the proxy's JSON 404 matches every path: without this, load
 * balancers' and uptime checkers' `HEAD /healthz` got a 404. The GET runs on the same connection's facts
 * (peer address, Node request) so access checks decide as they would for the GET.
 */
export async function answerHead(app: H3, event: H3Event): Promise<Response> {
  const get = new Request(event.req.url, { method: 'GET', headers: event.req.headers, signal: event.req.signal })
  const source = event.req as Request & { ip?: string; runtime?: unknown }
  Object.defineProperties(get, { ip: { value: source.ip }, runtime: { value: source.runtime } })
  const response = await app.fetch(get)
  // A GET that answers with a stream (an event feed) is closed at once: HEAD wants its headers only.
  await response.body?.cancel().catch(() => {})
  return new Response(null, { status: response.status, headers: response.headers })
}
