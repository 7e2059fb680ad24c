import WebSocket from 'ws'
import { askEnvelope, openSocket } from '../helpers/ws-client.ts'

/** What a client got for one responses request: the status, the events' data (parsed) or the error body. */
export interface Got { status: number; events: any[]; error?: unknown; retryAfter?: string }

/** Values that differ per answer by nature (ids, clocks), replaced so two answers compare. */
const clock = (text: string) => text.replace(/resets in \d+s \(at [^)]*\)/g, 'resets in *')
const volatile = new Set(['id', 'item_id', 'response_id', 'created_at', 'created', 'call_id', 'encrypted_content'])
export function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value === 'string') return clock(value)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, volatile.has(k) && (typeof v === 'string' || typeof v === 'number') ? '*' : normalize(v)]))
}

/** POST /v1/responses as an SSE client; `leaveAt`: the client leaves once the text holds it. */
export async function overHttp(url: string, key: string, body: unknown, leaveAt?: string): Promise<Got> {
  const controller = new AbortController()
  const response = await fetch(`${url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: controller.signal })
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    const text = await response.text()
    let error: unknown = text
    try { error = JSON.parse(text).error } catch {}
    return { status: response.status, events: [], error, retryAfter: response.headers.get('retry-after') ?? undefined }
  }
  let text = ''
  const decoder = new TextDecoder()
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true })
      if (leaveAt && text.includes(leaveAt)) { controller.abort(); break }
    }
  } catch {}
  const events = text.split(/\n\n/).map(block => block.split('\n').filter(line => line.startsWith('data:')).map(line => line.slice(5).trimStart()).join('\n')).filter(Boolean)
  // A client that left drops the event it was reading.
  const whole = leaveAt ? events.slice(0, -1) : events
  return { status: response.status, events: whole.map(data => { try { return JSON.parse(data) } catch { return data } }) }
}

/** A `/v1/responses` socket kept open for several requests in a row, as Codex keeps one per session. */
export interface Session { ask(body: unknown): Promise<Got>; close(): void }

/**
 * Each answer ends at its terminal event, an error message, or (a stream cut short) the first event of
 * a marker request (`generate: false`, no model call) sent after it. `leaveAt`: the socket closes once an
 * answer's text holds it.
 */
export async function socketSession(url: string, key: string, leaveAt?: string): Promise<Session> {
  const socket = await openSocket(`${url.replace('http', 'ws')}/v1/responses`, { authorization: `Bearer ${key}` })
  let current: { got: Got; done: (got: Got) => void } | undefined
  let marker = false
  socket.on('close', () => current?.done(current.got))
  socket.on('message', (data: WebSocket.RawData) => {
    const text = data.toString()
    const message = JSON.parse(text)
    if (marker) {
      if (message.type === 'response.completed') { marker = false; current?.done(current.got) }
      return
    }
    if (message.type === 'response.created' && message.response?.model === 'marker') { marker = true; return }
    const got = current!.got
    if (message.type === 'error' && message.status !== undefined && got.events.length === 0) {
      got.status = message.status
      got.error = message.error
      got.retryAfter = message.headers?.['retry-after']
      return
    }
    if (leaveAt && text.includes(leaveAt)) { socket.close(); return }
    got.events.push(message)
  })
  return {
    ask: body => new Promise((resolve) => {
      current = { got: { status: 200, events: [] }, done: resolve }
      socket.send(JSON.stringify({ type: 'response.create', ...(body as object) }))
      socket.send(JSON.stringify({ type: 'response.create', model: 'marker', generate: false }))
    }),
    close: () => socket.close(),
  }
}

/** The same requests as `/v1/ws` envelopes on one socket, one after another: events unwrapped to their data. */
export async function envelopeSession(url: string, key: string): Promise<Session> {
  const socket = await openSocket(`${url.replace('http', 'ws')}/v1/ws`, { authorization: `Bearer ${key}` })
  let n = 0
  return {
    async ask(body) {
      const replies = await askEnvelope(socket, { id: String(n++), path: '/v1/responses', body })
      const last = replies.at(-1)
      const events = replies.filter(reply => reply.type === 'event').map(reply => reply.data)
      return last.type === 'error' ? { status: last.status, events, error: last.body?.error ?? last.body, retryAfter: last.headers?.['retry-after'] } : { status: last.status, events }
    },
    close: () => socket.close(),
  }
}

/** Several requests on one new session, in a row. */
export async function inSession(open: Promise<Session>, bodies: unknown[]): Promise<Got[]> {
  const session = await open
  const out: Got[] = []
  try {
    for (const body of bodies) out.push(await session.ask(body))
  } finally {
    session.close()
  }
  return out
}

/** One `/v1/ws` stream left mid-answer: the socket closes once the text holds `leaveAt`. */
export async function leaveEnvelope(url: string, key: string, body: unknown, leaveAt: string): Promise<Got> {
  const socket = await openSocket(`${url.replace('http', 'ws')}/v1/ws`, { authorization: `Bearer ${key}` })
  const got: Got = { status: 200, events: [] }
  return new Promise((resolve) => {
    socket.on('message', (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString())
      if (data.toString().includes(leaveAt)) { socket.close(); resolve(got) } else if (message.type === 'event') got.events.push(message.data)
      else { got.status = message.status; got.error = message.body?.error; socket.close(); resolve(got) }
    })
    socket.send(JSON.stringify({ id: '1', path: '/v1/responses', body }))
  })
}

/** One key's counts in `/metrics`: requests by status and tokens by type. */
export function keyCounts(metrics: string, key: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const line of metrics.split('\n')) {
    if (!line.includes(`key="${key}"`) || line.startsWith('#')) continue
    const name = line.slice(0, line.indexOf('{'))
    const labels = line.slice(line.indexOf('{') + 1, line.lastIndexOf('}')).replace(/key="[^"]*",?/, '')
    out[`${name}{${labels}}`] = Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return out
}
