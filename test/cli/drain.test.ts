import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { clientCall, clientHeaders, streamCompleted, streamErrorEnding, type ClientFormat } from '../helpers/client-formats.ts'
import { openSocket } from '../helpers/ws-client.ts'

/**
 * Issue 18.10: SIGTERM drains for real. The listener closes; requests already running finish (streams
 * shorter than the window end normally, never cut); a new request on a kept-alive connection is
 * answered 503 in its format with `Connection: close` instead of being served or reset; a stream still
 * open when the window ends gets an error event in its own format and a proper end; then the process
 * exits 0. A real process, real sockets.
 */

const drainSeconds = 3
let upstream: MockUpstream
let dir: string
beforeAll(async () => {
  // A stream of `n` ms: the user's text is the duration; a delta every 100 ms.
  upstream = await startMockUpstream(async (request) => {
    const body = await request.json() as { stream?: boolean; messages: Array<{ content: string }> }
    const said = body.messages.at(-1)!.content
    // `wait:<ms>`: nothing at all (no headers) for that long, then a normal short stream.
    if (said.startsWith('wait:')) await new Promise(resolve => setTimeout(resolve, Number(said.slice(5))))
    const ms = said.startsWith('wait:') ? 200 : Number(said)
    if (!body.stream) {
      await new Promise(resolve => setTimeout(resolve, ms))
      return Response.json({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'last' }, finish_reason: 'stop' }] })
    }
    const encoder = new TextEncoder()
    const frame = (content: string) => encoder.encode(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`)
    return new Response(new ReadableStream({
      async start(controller) {
        try {
          for (let t = 0; t < ms; t += 100) {
            controller.enqueue(frame(`t${t} `))
            await new Promise(resolve => setTimeout(resolve, 100))
          }
          controller.enqueue(frame('last'))
          controller.enqueue(encoder.encode(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`))
          controller.close()
        } catch {} // the proxy went away mid-stream
      },
    }), { headers: { 'content-type': 'text/event-stream' } })
  })
  dir = mkdtempSync(join(tmpdir(), 'proxy-drain-'))
  writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [k]\ncompat-provider: [{ name: slow, base-url: '${upstream.url}/v1', models: [{ name: m, alias: m }] }]\n`)
})
afterAll(async () => {
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
})

interface Outcome { status?: number; text?: string; connection?: string; error?: string }

/** A request through a given keep-alive pool; a socket error is an outcome, not a throw. */
async function send(url: string, pool: Agent, format: ClientFormat, ms: number | string, stream = true): Promise<Outcome> {
  const { path, body } = clientCall(format, 'm', stream, String(ms))
  try {
    const response = await request(`${url}${path}`, { method: 'POST', dispatcher: pool, headers: clientHeaders('k'), body: JSON.stringify(body) })
    return { status: response.statusCode, connection: String(response.headers.connection ?? ''), text: await response.body.text() }
  } catch (error) {
    return { error: `${(error as Error).message} ${(error as { code?: string }).code ?? ''}` }
  }
}

function start(): CliProcess {
  return runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, { PROXY_DRAIN_SECONDS: String(drainSeconds) })
}

describe('SIGTERM drains', () => {
  it('streams shorter than the window finish; a longer one ends with an error event in its format; exit 0', async () => {
    const cli = start()
    const url = await cli.url
    const pool = new Agent({ connections: 16 })
    try {
      // Warm the pool: idle kept-alive connections exist when the signal comes.
      await Promise.all([send(url, pool, 'chat', 0), send(url, pool, 'chat', 0)])
      const before = upstream.requests.length
      const short = [
        send(url, pool, 'chat', 800), send(url, pool, 'chat', 1600), send(url, pool, 'chat', 2400),
        send(url, pool, 'messages', 1500), send(url, pool, 'responses', 1500), send(url, pool, 'generate-sse', 1500),
        send(url, pool, 'chat', 1200, false),
      ]
      const long = (['chat', 'messages', 'responses', 'generate-sse'] as const).map(format => send(url, pool, format, 10_000).then(outcome => ({ format, outcome })))
      // Still waiting for the upstream when the window ends: a non-stream call, and a stream with no first byte yet.
      const waiting = [send(url, pool, 'messages', 10_000, false), send(url, pool, 'generate-sse', 'wait:10000'), send(url, pool, 'chat', 'wait:10000')]
      // The signal comes once every request has reached the upstream (all are running).
      while (upstream.requests.length < before + short.length + long.length + waiting.length) await new Promise(resolve => setTimeout(resolve, 20))
      const signalled = Date.now()
      cli.child.kill('SIGTERM')
      const [shortOutcomes, longOutcomes, waitingOutcomes] = await Promise.all([Promise.all(short), Promise.all(long), Promise.all(waiting)])
      for (const [i, outcome] of shortOutcomes.entries()) {
        expect(outcome.error, `short #${i}`).toBeUndefined()
        expect(outcome.status, `short #${i}: ${outcome.text}`).toBe(200)
        const format = (['chat', 'chat', 'chat', 'messages', 'responses', 'generate-sse'] as const)[i]
        if (format) expect(streamCompleted(format, outcome.text!), `short #${i}: ${outcome.text}`).toBeUndefined()
        else expect(JSON.parse(outcome.text!).choices[0].message.content).toContain('last')
      }
      for (const { format, outcome } of longOutcomes) {
        expect(outcome.error, format).toBeUndefined()
        expect(outcome.status, format).toBe(200)
        expect(outcome.text, format).toContain('t0 ')
        expect(streamErrorEnding(format, outcome.text!), `${format}: ${outcome.text!.slice(-300)}`).toBeUndefined()
        expect(outcome.text!.toLowerCase(), format).toContain('shutting down')
      }
      // Those never started answering: an error response in their format, not a cut connection.
      for (const [i, outcome] of waitingOutcomes.entries()) {
        expect(outcome.error, `waiting #${i}`).toBeUndefined()
        expect(outcome.status, `waiting #${i}: ${outcome.text}`).toBe(503)
        const body = JSON.parse(outcome.text!)
        expect(i === 0 ? body.type : typeof body.error, `waiting #${i}`).toBe(i === 0 ? 'error' : 'object')
        expect(body.error.message, `waiting #${i}`).toMatch(/shutting down/)
        if (i === 1) expect(body.error.status).toBe('UNAVAILABLE')
      }
      expect(await cli.exit).toBe(0)
      // The window plus a moment to end the streams and close: not the 5 s force-exit fallback.
      expect(Date.now() - signalled).toBeLessThan(drainSeconds * 1000 + 2500)
    } finally {
      await pool.close()
      await cli.kill('SIGKILL')
    }
  }, 60_000)

  it('stops accepting: a new request on a kept-alive connection gets 503 in its format with Connection: close, never a reset', async () => {
    const cli = start()
    const url = await cli.url
    const pool = new Agent({ connections: 1 })
    try {
      expect((await send(url, pool, 'chat', 0)).status).toBe(200)
      // One connection, requests one after another: the first spans the signal, the rest come after it.
      const running = send(url, pool, 'chat', 1000)
      await new Promise(resolve => setTimeout(resolve, 300))
      cli.child.kill('SIGTERM')
      const first = await running
      expect(first.status, first.error).toBe(200)
      expect(streamCompleted('chat', first.text!), first.text).toBeUndefined()
      for (const format of ['chat', 'messages', 'generate-sse'] as const) {
        const next = await send(url, pool, format, 100)
        if (next.error) {
          // Once the refused request closed its connection, the next one finds the listener closed.
          expect(next.error).toMatch(/ECONNREFUSED/)
          continue
        }
        expect(next.status).toBe(503)
        expect(next.connection).toBe('close')
        const body = JSON.parse(next.text!)
        const message = format === 'generate-sse' ? body.error.message : body.error.message
        expect(message).toMatch(/shutting down/)
        if (format === 'messages') expect(body.type).toBe('error')
        if (format === 'generate-sse') expect(body.error.status).toBe('UNAVAILABLE')
      }
      await expect(fetch(`${url}/healthz`)).rejects.toThrow()
      expect(await cli.exit).toBe(0)
    } finally {
      await pool.close()
      await cli.kill('SIGKILL')
    }
  }, 60_000)

  it('an open WebSocket does not hold the process past the window', async () => {
    const cli = start()
    const url = await cli.url
    try {
      const socket = await openSocket(`${url.replace('http', 'ws')}/v1/ws`, { authorization: 'Bearer k' })
      const closed = new Promise(resolve => socket.once('close', resolve))
      const signalled = Date.now()
      cli.child.kill('SIGTERM')
      expect(await cli.exit).toBe(0)
      await closed
      expect(Date.now() - signalled).toBeLessThan(drainSeconds * 1000 + 2500)
    } finally {
      await cli.kill('SIGKILL')
    }
  }, 60_000)
})
