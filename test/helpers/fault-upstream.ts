import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startTestProxy, type TestProxy } from './proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'

/**
 * A mock upstream of one family that misbehaves on purpose. The credential's key names the fault
 * (`reset-post`, `hang-pre`, ...; anything else answers normally), or `choose` decides per request.
 * `-pre` faults happen before any byte of the answer (or, for `nonjson-pre` and `truncated-pre` on a
 * stream, with status 200 but no usable event); `-post` faults happen after the first events, which
 * carry the start of the text ("Hello from the playground ..."). `garbage-pre` answers 200 with bytes that
 * are no SSE at all (then more of them, the connection kept open a moment); `halfevent-pre` answers 200 with
 * a whole event (blank line included) whose JSON is cut off: `data: {"id":`; `braced-garbage-pre` a body (or
 * event) that starts with `{` and ends with `}` and is no JSON. `status-429-bare` is a 429
 * without `Retry-After`. Clean closes (the upstream ends its answer as if it were whole): `empty-pre` sends
 * only a comment, `cut-post` stops after the first text events, `midframe-post` stops inside an event.
 * `trickle` is no fault: a whole answer, one event every 250 ms (slower in all than the idle timeout of the
 * tests, never idle that long at once), as a slow upstream sends tokens. `mixed-line-ends` is no fault either:
 * the whole answer an event per write, its line ends a mix of `\n`, `\r\n` and `\r` (valid SSE).
 * `error-first` answers a stream with 200 and the family's error event first (`errorFirstEvents`), as
 * relays and gateways do. `done-pre` answers a stream with 200 and `data: [DONE]` alone: no answer at all.
 * `bom` is no fault: the whole answer (stream or not) after a UTF-8 byte order mark, as some servers write. A key may carry `#anything` after the fault's name: another credential, the same fault.
 */
export type Fault =
  | 'ok' | 'braced-garbage-pre' | 'nonjson-pre' | 'truncated-pre' | 'reset-pre' | 'hang-pre'
  | 'truncated-post' | 'reset-post' | 'hang-post' | 'status-429' | 'status-429-bare' | 'status-500'
  | 'garbage-pre' | 'halfevent-pre' | 'empty-pre' | 'done-pre' | 'cut-post' | 'midframe-post' | 'trickle' | 'mixed-line-ends' | 'error-first' | 'bom'
export const faults: Fault[] = ['mixed-line-ends', 'ok', 'braced-garbage-pre', 'nonjson-pre', 'truncated-pre', 'reset-pre', 'hang-pre', 'truncated-post', 'reset-post', 'hang-post', 'status-429', 'status-429-bare', 'status-500', 'garbage-pre', 'halfevent-pre', 'empty-pre', 'done-pre', 'cut-post', 'midframe-post', 'trickle', 'error-first', 'bom']

export type UpstreamFamily = 'compat' | 'beta' | 'gamma' | 'alpha'
const handlers: Record<UpstreamFamily, (request: Request) => Promise<Response>> = { compat: openaiMock, beta: messagesMock, gamma: responsesMock, alpha: generateMock }

export interface FaultRecord { key: string; fault: Fault; url: string; at: number; stream: boolean; closedAt?: number; aborted?: boolean }

export interface FaultUpstream {
  url: string
  /** Base URL for the family's config entry (`/v1` appended where the family expects it). */
  baseUrl: string
  requests: FaultRecord[]
  /** Resolves with the time the proxy closed a request's socket while its answer was still open. */
  nextAbort(): Promise<FaultRecord>
  close(): Promise<void>
}

export interface FaultUpstreamOptions { choose?: (key: string) => Fault }

/**
 * Each family's error as the first event of a 200 stream (the key in the message, to be masked), and the
 * status the attempt fails with: a numeric code (compat, alpha), overloaded (beta), a rate limit (gamma).
 */
export const errorFirstEvents: Record<UpstreamFamily, { status: number; text: (key: string) => string }> = {
  compat: { status: 503, text: key => `data: {"error":{"message":"upstream busy (key ${key})","type":"server_error","code":503}}\n\ndata: [DONE]\n\n` },
  beta: { status: 529, text: key => `event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded (key ${key})"}}\n\n` },
  gamma: { status: 429, text: key => `event: response.failed\ndata: {"type":"response.failed","sequence_number":0,"response":{"id":"resp_x","object":"response","status":"failed","error":{"code":"rate_limit_exceeded","message":"slow down (key ${key})"}}}\n\n` },
  alpha: { status: 500, text: key => `data: {"error":{"code":500,"message":"internal (key ${key})","status":"INTERNAL"}}\n\n` },
}

const keyOf = (req: IncomingMessage) => String(req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? String(req.headers.authorization ?? '').replace(/^Bearer /, ''))

/** SSE events of a complete answer, each with its blank line. */
const splitEvents = (text: string) => text.match(/[\s\S]*?(?:\r?\n\r?\n|$)/g)!.filter(Boolean)

export async function startFaultUpstream(family: UpstreamFamily, options: FaultUpstreamOptions = {}): Promise<FaultUpstream> {
  const requests: FaultRecord[] = []
  let waiters: Array<(record: FaultRecord) => void> = []
  const hanging = new Set<ServerResponse>()

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const key = keyOf(req)
    const named = key.split('#')[0]!
    const fault = options.choose?.(key) ?? (faults.includes(named as Fault) ? named as Fault : 'ok')
    const stream = /"stream"\s*:\s*true/.test(body) || /stream/i.test(req.url ?? '')
    const record: FaultRecord = { key, fault, url: req.url ?? '', at: Date.now(), stream }
    requests.push(record)
    res.on('close', () => {
      record.closedAt = Date.now()
      if (res.writableFinished) return
      record.aborted = true
      hanging.delete(res)
      const current = waiters
      waiters = []
      for (const wake of current) wake(record)
    })

    if (fault === 'reset-pre') return void req.socket.destroy()
    if (fault === 'hang-pre') return void hanging.add(res)
    if (fault === 'status-429' || fault === 'status-429-bare' || fault === 'status-500') {
      const status = fault === 'status-500' ? 500 : 429
      res.writeHead(status, { 'content-type': 'application/json', ...(fault === 'status-429' && { 'retry-after': '1' }) })
      return void res.end(JSON.stringify({ error: { message: `injected ${status}`, type: status === 429 ? 'rate_limit_error' : 'server_error', code: status, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' }, type: 'error' }))
    }
    const type = stream ? 'text/event-stream' : 'application/json'
    if (fault === 'error-first' && stream) {
      res.writeHead(200, { 'content-type': type })
      return void res.end(errorFirstEvents[family].text(key))
    }
    if (fault === 'nonjson-pre') {
      res.writeHead(200, { 'content-type': type })
      return void res.end('<html><body>502 Bad Gateway (an HTML page from a load balancer)</body></html>')
    }
    if (fault === 'garbage-pre') {
      res.writeHead(200, { 'content-type': type })
      res.write('\u0000\u0007garbage that is not SSE at all }{ \r\n')
      setTimeout(() => res.end('more garbage\n\n\n'), 20)
      return
    }
    // Starts with `{` and ends with `}`, and is still no JSON: only a parse tells.
    if (fault === 'braced-garbage-pre') {
      res.writeHead(200, { 'content-type': type })
      return void res.end(stream ? 'data: {"id": oops }\n\n' : '{"id": "x", "choices": oops }')
    }
    if (fault === 'halfevent-pre') {
      res.writeHead(200, { 'content-type': type })
      return void res.end(stream ? 'data: {"id":\n\n' : '{"id":')
    }
    if (fault === 'empty-pre' && stream) {
      res.writeHead(200, { 'content-type': type })
      return void res.end(': nothing but a comment\n\n')
    }
    if (fault === 'done-pre' && stream) {
      res.writeHead(200, { 'content-type': type })
      return void res.end('data: [DONE]\n\n')
    }
    if (fault === 'truncated-pre') {
      res.writeHead(200, { 'content-type': type })
      res.write(stream ? 'data: {"id":"cut-off-in-the-middle","obj' : '{"id":"cut-off-in-the-middle","obj')
      setTimeout(() => req.socket.destroy(), 20)
      return
    }

    const answer = await handlers[family](new Request(`http://mock${req.url}`, { method: req.method, headers: req.headers as HeadersInit, body: req.method === 'GET' ? undefined : body }))
    const text = await answer.text()
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? type })
    if (fault === 'bom') return void res.end(`\uFEFF${text}`)
    if (fault === 'ok' || !stream || answer.status !== 200) return void res.end(text)

    const events = splitEvents(text)
    if (fault === 'mixed-line-ends') {
      const lineEnds = ['\n', '\r\n', '\r']
      const blankLines = ['\n\r\n', '\r\n\n', '\r\r', '\n\r', '\r\n\r\n', '\r\r\n']
      for (const [i, event] of events.entries()) {
        if (res.destroyed) return
        res.write(event.replace(/(\r?\n)+$/, '').split(/\r?\n/).join(lineEnds[i % 3]) + blankLines[i % blankLines.length])
        await new Promise(resolve => setImmediate(resolve))
      }
      return void res.end()
    }
    if (fault === 'trickle') {
      for (const event of events) {
        if (res.destroyed) return
        res.write(event)
        await new Promise(resolve => setTimeout(resolve, 250))
      }
      return void res.end()
    }
    // -post faults: send events up to the first one carrying text, then misbehave.
    const cut = Math.min(events.length - 1, events.findIndex(event => event.includes('Hello')) + 1 || 1)
    res.write(events.slice(0, cut).join(''))
    await new Promise(resolve => setTimeout(resolve, 30))
    if (fault === 'hang-post') return void hanging.add(res)
    if (fault === 'cut-post') return void res.end()
    if (fault === 'midframe-post') return void res.end(events[cut]!.slice(0, Math.ceil(events[cut]!.length / 2)))
    if (fault === 'truncated-post') res.write('data: {"half an event, then the connection dies')
    setTimeout(() => req.socket.destroy(), 20)
  }

  const server: Server = createServer((req, res) => {
    serve(req, res).catch(() => res.destroy())
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    baseUrl: family === 'compat' || family === 'gamma' ? `${url}/v1` : url,
    requests,
    nextAbort: () => new Promise(resolve => waiters.push(resolve)),
    close: () => new Promise((resolve) => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

/** Config entries for one family: one entry per key, all serving `upstreamModel` as `alias`. */
export function familyEntries(family: UpstreamFamily, baseUrl: string, keys: string[], alias: string, sameName = false): Record<string, unknown[]> {
  const upstreamModel = { compat: 'mock-gpt', beta: 'mock-claude', gamma: 'mock-codex', alpha: 'mock-gemini' }[family]
  // `sameName`: the upstream is asked for the model by the client's own name (a same-format request then passes through).
  const models = sameName ? [{ name: alias }] : [{ name: upstreamModel, alias }]
  if (family === 'compat') return { 'compat-provider': [{ name: `fault-${alias}`, 'base-url': baseUrl, 'api-key-entries': keys.map(key => ({ 'api-key': key })), models }] }
  return { [`${family}-api-key`]: keys.map(key => ({ 'api-key': key, 'base-url': baseUrl, models })) }
}

/** Merge several `familyEntries` results into one config object. */
export function mergeEntries(parts: Array<Record<string, unknown[]>>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {}
  for (const part of parts) for (const [key, list] of Object.entries(part)) (out[key] ??= []).push(...list)
  return out
}

/** One fault upstream per family. */
export async function startFaultUpstreams(families: UpstreamFamily[]): Promise<Record<UpstreamFamily, FaultUpstream>> {
  const started = await Promise.all(families.map(family => startFaultUpstream(family)))
  return Object.fromEntries(families.map((family, i) => [family, started[i]!])) as Record<UpstreamFamily, FaultUpstream>
}

/**
 * A proxy over fault upstreams (client key `k`): the faulty credential first (fill-first), a 200 whose
 * stream dies before its first event retried once, 1 s first-byte and idle timeouts.
 */
export function startFaultProxy(entries: Record<string, unknown[]>): Promise<TestProxy> {
  return startTestProxy({
    'api-keys': ['k'],
    routing: { strategy: 'fill-first' },
    streaming: { 'bootstrap-retries': 1 },
    timeouts: { 'first-byte-seconds': 1, 'stream-idle-seconds': 1 },
    ...entries,
  })
}

/** Closes what `startFaultProxy` and `startFaultUpstreams` started. */
export async function closeFaultProxy(proxy: TestProxy | undefined, upstreams: Partial<Record<UpstreamFamily, FaultUpstream>> | undefined): Promise<void> {
  await proxy?.close()
  await Promise.all(Object.values(upstreams ?? {}).map(upstream => upstream!.close()))
}
