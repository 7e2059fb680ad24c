import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

export interface RecordedRequest { method: string; url: string; headers: IncomingMessage['headers']; body: string }

export interface MockUpstream {
  url: string
  requests: RecordedRequest[]
  /** Resolves when an upstream socket closes while a response was still open (client abort propagated). */
  closedMidResponse: Promise<void>
  /** Replace the handler (e.g. to hang, fail, or return a fixed body). */
  handler: (request: Request) => Promise<Response> | Response
  close(): Promise<void>
}

/** A mock upstream fetch handler (`openaiMock`, `messagesMock`, `responsesMock`, `generateMock`). */
export type MockHandler = (request: Request, basePath?: string) => Promise<Response> | Response

/** A real node:http mock OpenAI-compatible upstream; same as `startMockUpstream(openaiMock)`. */
export const startMockOpenAI = (): Promise<MockUpstream> => startMockUpstream(openaiMock)

/**
 * A real node:http server on a random loopback port wrapping any mock upstream handler: records
 * requests and tells when a socket closes mid-response.
 */
export async function startMockUpstream(handler: MockHandler = openaiMock): Promise<MockUpstream> {
  let signalClosed!: () => void
  const mock: MockUpstream = {
    url: '',
    requests: [],
    closedMidResponse: new Promise(resolve => { signalClosed = resolve }),
    handler: request => handler(request),
    close: () => new Promise(resolve => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    mock.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body })
    res.on('close', () => { if (!res.writableFinished) signalClosed() })
    const response = await mock.handler(new Request(`http://mock${req.url}`, { method: req.method, headers: req.headers as HeadersInit, body: req.method === 'GET' ? undefined : body }))
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (!response.body) return res.end()
    const reader = response.body.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        if (!res.write(value)) await new Promise(resolve => res.once('drain', resolve))
        if (res.destroyed) break
      }
    } catch {}
    res.end()
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return mock
}

/** The chat mock, except that requests carrying upstream key `limitedKey` always get a 429 with Retry-After. */
export function startQuotaLimitedUpstream(limitedKey: string, retryAfterSeconds = 600): Promise<MockUpstream> {
  return startMockUpstream(request => request.headers.get('authorization') === `Bearer ${limitedKey}`
    ? new Response(JSON.stringify({ error: { message: 'quota exceeded' } }), { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } })
    : openaiMock(request))
}

/**
 * A mock that answers what it cannot read with the 400 a vendor would give (a body every format's error
 * decoder reads), instead of throwing and never answering: for fuzzers, whose junk reaches upstreams.
 */
export const tolerantMock = (handler: MockHandler): MockHandler => async (request) => {
  try {
    return await handler(request)
  } catch {
    return Response.json({ type: 'error', error: { message: 'mock could not read the request', type: 'invalid_request_error', code: 400, status: 'INVALID_ARGUMENT' } }, { status: 400 })
  }
}
