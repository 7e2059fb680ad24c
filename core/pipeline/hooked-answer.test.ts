import { describe, expect, it } from 'vitest'
import { webStreamOf } from '../framing/web-stream.ts'
import { HookedAnswer, hookStreamFailed, hookStreamStopped } from './hooked-answer.ts'
import { ClientGone } from '../edge/client-abort.ts'
import { collect, runningAnswer } from '../../test/helpers/answer-stream.ts'

const settle = () => new Promise(resolve => setImmediate(resolve))
const upper = () => new TransformStream<Uint8Array, Uint8Array>({ transform(chunk, controller) { controller.enqueue(Buffer.from(Buffer.from(chunk).toString().toUpperCase())) } })

/** A running answer (`a` sent) behind a hook's web stream made of `wrap`. */
async function hooked(wrap: (web: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>, gone?: ClientGone) {
  const running = await runningAnswer()
  const errors: unknown[] = []
  const answer = new HookedAnswer(wrap(webStreamOf(running.answer)), running.answer, gone, error => errors.push(error))
  return { ...running, hooked: answer, errors }
}

describe('HookedAnswer', () => {
  it('gives what the hook\'s stream gives; read to its end, the answer\'s own outcome stands', async () => {
    const { upstream, hooked: answer, errors } = await hooked(web => web.pipeThrough(upper()))
    upstream.end('b\n\n')
    expect(await collect(answer)).toBe('A\n\nB\n\n[END]')
    expect(await answer.outcome).toEqual({ usage: { inputTokens: 1, outputTokens: 2 }, delivered: 0 })
    expect(errors).toEqual([])
  })

  it('a hook stream that fails: what came, then the format\'s error event; failed, the upstream let go, the error logged', async () => {
    const { upstream, hooked: answer, errors } = await hooked(web => web.pipeThrough(new TransformStream({
      transform(chunk, controller) { if (Buffer.from(chunk).toString().includes('b')) controller.error(new Error('broke')); else controller.enqueue(chunk) },
    })))
    const text = collect(answer)
    upstream.write('b\n\n')
    expect(await text).toBe(`a\n\n[error 502 ${hookStreamFailed}]`)
    expect(await answer.outcome).toEqual({ usage: { inputTokens: 1, outputTokens: 2 }, error: hookStreamFailed, partial: true, delivered: 0 })
    expect(upstream.destroyed).toBe(true)
    expect(errors).toEqual([new Error('broke')])
  })

  it('fails after the upstream ended whole too: the client did not get the end', async () => {
    const { upstream, hooked: answer } = await hooked(web => web.pipeThrough(new TransformStream({ flush() { throw new Error('at the end') } })))
    upstream.end()
    expect(await collect(answer)).toBe(`a\n\n[end][error 502 ${hookStreamFailed}]`)
    expect(await answer.outcome).toMatchObject({ error: hookStreamFailed, partial: true })
  })

  it('a hook stream that ends before the answer did: the error event, failed as stopped short', async () => {
    const { upstream, hooked: answer } = await hooked(web => web.pipeThrough(new TransformStream({ transform(chunk, controller) { controller.enqueue(chunk); controller.terminate() } })))
    expect(await collect(answer)).toBe(`a\n\n[error 502 ${hookStreamStopped}]`)
    expect(await answer.outcome).toMatchObject({ error: hookStreamStopped, partial: true })
    await settle()
    expect(upstream.destroyed).toBe(true)
  })

  it('a hook stream that gives something other than bytes fails', async () => {
    const { hooked: answer, errors } = await hooked(() => new ReadableStream({ start(controller) { controller.enqueue('text' as never) } }))
    expect(await collect(answer)).toBe(`[error 502 ${hookStreamFailed}]`)
    expect(String(errors[0])).toContain('not bytes')
  })

  it('a client that leaves lets the hook\'s stream and the upstream go: a client disconnected', async () => {
    const { upstream, hooked: answer } = await hooked(web => web.pipeThrough(upper()))
    answer.destroy()
    expect(await answer.outcome).toMatchObject({ error: 'client disconnected', partial: true })
    await settle()
    expect(upstream.destroyed).toBe(true)
  })

  it('an in-process client leaves by its signal alone (nobody destroys the stream for it): the same', async () => {
    const gone = new ClientGone()
    const { upstream, hooked: answer } = await hooked(web => web.pipeThrough(upper()), gone)
    gone.abort()
    expect(await answer.outcome).toMatchObject({ error: 'client disconnected', partial: true })
    await settle()
    expect(upstream.destroyed).toBe(true)
  })
})
