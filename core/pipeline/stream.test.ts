import { PassThrough, Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { describe, expect, it, vi } from 'vitest'
import { OpenAnswers } from './open-answers.ts'
import { endGraceMs } from './stream.ts'
import { collect, runningAnswer as running, startedAnswer as started, TestTransform } from '../../test/helpers/answer-stream.ts'
import { StreamResponseContext } from './stream-context.ts'
import { SocketPipe } from '../edge/respond.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'

describe('AnswerStream', () => {
  it('primes on the first whole event, then passes the rest and the end; the outcome once, when the client has read it all', async () => {
    const upstream = new PassThrough()
    const { answer, outcomes, start } = started(upstream)
    upstream.write('a\n\n')
    expect(await answer.primed).toBeUndefined()
    start()
    upstream.end('b\n\n')
    expect(outcomes).toEqual([])
    expect(await collect(answer)).toBe('a\n\nb\n\n[end]')
    await new Promise(resolve => setImmediate(resolve))
    expect(outcomes).toEqual([{ usage: { inputTokens: 1, outputTokens: 2 }, delivered: 0 }])
  })

  it.each([
    ['ends', (upstream: PassThrough) => upstream.end('no event yet'), 'the stream ended before its first event'],
    ['breaks', (upstream: PassThrough) => upstream.destroy(new Error('socket hang up')), 'socket hang up'],
    ['sends a broken first event', (upstream: PassThrough) => upstream.write('junk\n\n'), 'bad chunk junk\n\n'],
  ])('an upstream that %s before its first event is broken (it may fail over) and let go', async (_name, act, reason) => {
    const upstream = new PassThrough()
    const { answer } = started(upstream, new TestTransform('junk'))
    act(upstream)
    expect(await answer.primed).toBe(reason)
    expect(upstream.destroyed).toBe(true)
  })

  it('after the first byte, an upstream failure ends the client stream with the error event and a clean end', async () => {
    const { upstream, answer, outcomes } = await running()
    const text = collect(answer)
    upstream.destroy(new Error('reset'))
    expect(await text).toBe('a\n\n[error 502 upstream stream failed: reset]')
    await new Promise(resolve => setImmediate(resolve))
    expect(outcomes).toEqual([{ usage: expect.any(Object), error: 'upstream stream failed: reset', partial: true, delivered: 0 }])
  })

  it('a client that goes away destroys the upstream body, and the outcome says so', async () => {
    const { upstream, answer, outcomes } = await running()
    answer.destroy()
    await new Promise(resolve => setImmediate(resolve))
    expect(upstream.destroyed).toBe(true)
    expect(outcomes).toEqual([{ usage: expect.any(Object), error: 'client disconnected', partial: true, delivered: 0, clientLeft: true }])
  })

  it('the answer\'s last event ends it at once, whole; an upstream that holds on is let go after the grace; nothing after the event goes out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const { upstream, answer, outcomes } = await running()
      const text = collect(answer)
      upstream.write('b\n\n[last] more that the upstream sent after it')
      expect(await text).toBe('a\n\nb\n\n[last][end]')
      await new Promise(resolve => setImmediate(resolve))
      expect(outcomes).toEqual([{ usage: { inputTokens: 1, outputTokens: 2 }, delivered: 0 }])
      upstream.write('and more, read and dropped')
      vi.advanceTimersByTime(endGraceMs - 1)
      expect(upstream.destroyed).toBe(false)
      vi.advanceTimersByTime(1)
      expect(upstream.destroyed).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('an upstream that ends its response within the grace after the last event ends it (its connection stays reusable)', async () => {
    const { upstream, answer, outcomes } = await running()
    const text = collect(answer)
    upstream.write('[last]')
    expect(await text).toBe('a\n\n[last][end]')
    upstream.end('trailing bytes')
    await new Promise(resolve => setImmediate(resolve))
    expect(upstream.readableEnded).toBe(true)
    expect(outcomes).toEqual([{ usage: { inputTokens: 1, outputTokens: 2 }, delivered: 0 }])
  })

  it('a last event before the answer was started: it ends whole once started', async () => {
    const upstream = new PassThrough()
    const { answer, outcomes, start } = started(upstream)
    upstream.write('a\n\n[last]')
    expect(await answer.primed).toBeUndefined()
    start()
    expect(await collect(answer)).toBe('a\n\n[last][end]')
    expect(outcomes).toEqual([{ usage: { inputTokens: 1, outputTokens: 2 }, delivered: 0 }])
  })

  it('a client that goes away after the terminal event, before the upstream ended: the answer was whole', async () => {
    const { upstream, answer, outcomes } = await running()
    upstream.write('[stop]\n\n')
    await new Promise(resolve => setImmediate(resolve))
    answer.destroy()
    await new Promise(resolve => setImmediate(resolve))
    expect(upstream.destroyed).toBe(true)
    expect(outcomes).toEqual([{ usage: { inputTokens: 1, outputTokens: 2 }, delivered: 0 }])
  })

  it('reads the upstream no faster than the client takes it', async () => {
    let served = 0
    const upstream = new Readable({ read() { this.push(served++ === 0 ? 'a\n\n' : 'x'.repeat(64 * 1024)) } })
    const { answer, start } = started(upstream)
    await answer.primed
    start()
    await new Promise(resolve => setTimeout(resolve, 50))
    // Nobody reads: a few chunks fill the buffers, then the upstream is paused.
    expect(served).toBeLessThan(8)
    expect(upstream.isPaused()).toBe(true)
    let taken = 0
    const slow = new Writable({ highWaterMark: 1, write(chunk, _encoding, done) { taken += chunk.length; if (taken > 2_000_000) { upstream.push(null) } setImmediate(done) } })
    await pipeline(answer, slow)
    expect(taken).toBeGreaterThan(2_000_000)
  })

  it('a drain that runs out of time ends it with the error event and leaves the registry', async () => {
    const open = new OpenAnswers()
    const { upstream, answer, outcomes } = await running(open)
    expect(open.size).toBe(1)
    for (const entry of open.list()) entry.end('shutting down', 503)
    expect(await collect(answer)).toBe('a\n\n[error 503 shutting down]')
    await new Promise(resolve => setImmediate(resolve))
    expect(upstream.destroyed).toBe(true)
    expect(open.size).toBe(0)
    expect(outcomes).toEqual([{ usage: expect.any(Object), error: 'shutting down', partial: true, delivered: 0 }])
  })
})

describe('StreamResponseContext', () => {
  const request = {} as ProxyRequest

  it('has no web stream while no hook asks for one: the Node stream is the answer', () => {
    const ctx = new StreamResponseContext(request, undefined, 200, {}, {}, Readable.from([Buffer.from('a')]))
    expect(ctx.sent()).toBeUndefined()
  })

  it('a Node stream piped into the response as it is', async () => {
    let text = ''
    const sink = new Writable({ write(chunk, _encoding, done) { text += chunk; done() } })
    new SocketPipe(Readable.from([Buffer.from('a'), Buffer.from('b')])).pipe(sink)
    await new Promise(resolve => sink.once('finish', resolve))
    expect(text).toBe('ab')
  })

  it('a response closed before the end destroys the source (the client went away)', () => {
    const node = new PassThrough()
    const sink = new PassThrough()
    new SocketPipe(node).pipe(sink)
    node.write('a')
    sink.destroy()
    return new Promise<void>(resolve => node.once('close', () => resolve()))
  })

  it('srvx may read it as a web body instead: its unbound abort destroys the source', () => {
    const node = new PassThrough()
    const { abort } = new SocketPipe(node)
    abort()
    expect(node.destroyed).toBe(true)
  })

  it('makes the web stream a hook reads, and keeps the one a hook sets', async () => {
    const ctx = new StreamResponseContext(request, undefined, 200, {}, {}, Readable.from([Buffer.from('a'), Buffer.from('b')]))
    const web = ctx.stream!
    ctx.stream = web.pipeThrough(new TransformStream({ transform(chunk, controller) { controller.enqueue(Buffer.from(Buffer.from(chunk).toString().toUpperCase())) } }))
    expect(await new Response(ctx.sent()).text()).toBe('AB')
  })

  it('makes no web stream once the answer is on its way: one read in after-response would take its bytes', () => {
    const node = Readable.from([Buffer.from('a')])
    const ctx = new StreamResponseContext(request, undefined, 200, {}, {}, node)
    expect(ctx.sent()).toBeUndefined()
    expect(ctx.stream).toBeUndefined()
    expect(node.listenerCount('data')).toBe(0)
  })

  it('a web stream a hook asked for, cancelled by a client gone, lets the upstream go', async () => {
    const { upstream, answer, outcomes } = await running()
    const ctx = new StreamResponseContext(request, undefined, 200, {}, {}, answer)
    const reader = ctx.stream!.getReader()
    expect(Buffer.from((await reader.read()).value!).toString()).toBe('a\n\n')
    await reader.cancel()
    await new Promise(resolve => setImmediate(resolve))
    expect(upstream.destroyed).toBe(true)
    expect(outcomes).toEqual([{ usage: expect.any(Object), error: 'client disconnected', partial: true, delivered: 0, clientLeft: true }])
  })
})
