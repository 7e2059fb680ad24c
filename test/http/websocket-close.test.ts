import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { familyEntries, startFaultUpstream, type FaultUpstream } from '../helpers/fault-upstream.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openSocket } from '../helpers/ws-client.ts'
import { openAnswersOf } from '../../core/pipeline/open-answers.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'
import type { ResponseContext } from '../../core/kernel/hooks.ts'

/**
 * A socket that closes while its answer streams: the upstream call ends with it (as for an HTTP client
 * that leaves), and what it had queued is never sent upstream. `trickle` sends an event every 250 ms.
 */
let upstream: FaultUpstream
let proxy: TestProxy
/** What accounting sees of each answer that ended. */
const ended: ResponseContext[] = []
const watcher = defineProxyPlugin({
  name: 'watcher',
  setup(kernel) {
    kernel.hooks.hook('after-response', (ctx) => { ended.push(ctx) })
    // A hook that wraps the answer stream (as keep-alive comments do) for the requests that ask for it.
    kernel.hooks.hook('before-response', (ctx) => {
      // The body first: reading `ctx.stream` alone puts the web stream in the answer.
      if ((ctx.request.body as { input?: unknown }).input === 'wrap me' && ctx.stream) ctx.stream = ctx.stream.pipeThrough(new TransformStream())
    })
  },
})
beforeAll(async () => {
  upstream = await startFaultUpstream('gamma')
  proxy = await startTestProxy({ 'api-keys': ['k'], ...familyEntries('gamma', upstream.baseUrl, ['trickle'], 'slow') }, [watcher])
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
const wsUrl = (path: string) => proxy.url.replace('http', 'ws') + path

describe('a WebSocket closed mid-answer', () => {
  it('/v1/responses: the upstream call is cut, queued requests never start, nothing stays open', async () => {
    const before = upstream.requests.length
    const socket = await openSocket(wsUrl('/v1/responses'), { authorization: 'Bearer k' })
    const first = new Promise(resolve => socket.once('message', resolve))
    for (let i = 0; i < 3; i++) socket.send(JSON.stringify({ type: 'response.create', model: 'slow', input: `q${i}` }))
    await first
    const aborted = upstream.nextAbort()
    socket.close()
    expect((await aborted).fault).toBe('trickle')
    await sleep(600)
    expect(upstream.requests.length - before).toBe(1)
    expect(openAnswersOf(proxy.proxy.kernel).size).toBe(0)
    // Accounted for what was delivered, as a client that left (not an upstream that failed).
    expect(ended.at(-1)).toMatchObject({ error: 'client disconnected', usage: { estimated: true } })
    expect(ended.at(-1)?.usage?.inputTokens).toBeGreaterThan(0)
  })

  it('/v1/responses, a hook wrapping the stream: the upstream call is cut, and the answer ends as a client that left', async () => {
    const socket = await openSocket(wsUrl('/v1/responses'), { authorization: 'Bearer k' })
    const first = new Promise(resolve => socket.once('message', resolve))
    socket.send(JSON.stringify({ type: 'response.create', model: 'slow', input: 'wrap me' }))
    await first
    const count = ended.length
    const aborted = upstream.nextAbort()
    socket.close()
    expect((await aborted).fault).toBe('trickle')
    await sleep(300)
    expect(openAnswersOf(proxy.proxy.kernel).size).toBe(0)
    expect(ended.length).toBe(count + 1)
    expect(ended.at(-1)).toMatchObject({ error: 'client disconnected', usage: { estimated: true } })
  })

  it('/v1/responses: closed right after response.completed (the upstream not yet ended): nothing thrown anywhere', async () => {
    // Cancelling the bridged web body here made Node's fetch close a cancelled stream: an uncaught
    // exception (vitest fails the file on one). The trickle upstream ends 250 ms after its last event.
    const socket = await openSocket(wsUrl('/v1/responses'), { authorization: 'Bearer k' })
    const completed = new Promise<void>(resolve => socket.on('message', (data) => { if (String(data).includes('"response.completed"')) resolve() }))
    socket.send(JSON.stringify({ type: 'response.create', model: 'slow', input: 'done' }))
    await completed
    socket.close()
    await sleep(500)
    expect(openAnswersOf(proxy.proxy.kernel).size).toBe(0)
  })

  it('/v1/ws: the same for an envelope stream', async () => {
    const before = upstream.requests.length
    const socket = await openSocket(wsUrl('/v1/ws'), { authorization: 'Bearer k' })
    const first = new Promise(resolve => socket.once('message', resolve))
    socket.send(JSON.stringify({ id: '1', path: '/v1/responses', body: { model: 'slow', input: 'hi', stream: true } }))
    await first
    const aborted = upstream.nextAbort()
    socket.close()
    expect((await aborted).fault).toBe('trickle')
    expect(upstream.requests.length - before).toBe(1)
    await sleep(100)
    expect(openAnswersOf(proxy.proxy.kernel).size).toBe(0)
  })
})
