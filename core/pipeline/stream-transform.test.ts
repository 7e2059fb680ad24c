import { describe, expect, it } from 'vitest'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { createStreamTransform } from './stream-transform.ts'
import type { AnswerPlan } from './answer-plan.ts'

const frame = (model: string, content: string) => `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"${model}","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}\n\n`
const upstreamText = frame('up', 'héllo wörld ✓') + frame('up', 'ünïcode') + 'data: [DONE]\n\n'
const kernel = { formats: new Map([['chat', chatCodec]]) } as unknown as ProxyKernel
const request = (model: string) => ({ inbound: 'chat', model, body: { stream_options: { include_usage: true } } }) as unknown as ProxyRequest
const plan: AnswerPlan = { upstream: 'chat', upstreamModel: 'up', sse: true, passthrough: true }

/** Feed `text` in pieces of `size` bytes (cutting UTF-8 characters too); collect what the client gets. */
function run(model: string, size: number) {
  const transform = createStreamTransform(kernel, request(model), plan)
  const bytes = Buffer.from(upstreamText)
  const outputs: Buffer[] = []
  for (let at = 0; at < bytes.length; at += size) {
    const out = transform.push(bytes.subarray(at, at + size))
    if (out) outputs.push(Buffer.from(out))
  }
  const tail = transform.end()
  if (tail) outputs.push(Buffer.from(tail))
  return { outputs, text: Buffer.concat(outputs).toString('utf8'), primed: transform.primed }
}

describe('same-format stream passthrough', () => {
  it.each([1, 3, 7, 37, 4096])('pieces of %i bytes: the upstream bytes come out whole, each output ends an event', (size) => {
    const { outputs, text, primed } = run('up', size)
    expect(text).toBe(upstreamText)
    expect(primed).toBe(true)
    for (const out of outputs) expect(out.subarray(-2).toString()).toBe('\n\n')
  })

  it.each([1, 5, 64])('pieces of %i bytes with an alias: only the model name changes', (size) => {
    expect(run('my-alias', size).text).toBe(upstreamText.replaceAll('"model":"up"', '"model":"my-alias"'))
  })

  it('with an alias, a model name on the data line after its key is rewritten too (SSE joins data lines with \\n)', () => {
    const transform = createStreamTransform(kernel, request('my-alias'), plan)
    const split = 'data: {"id":"c","object":"chat.completion.chunk","model":\r\ndata: "up","choices":[]}\n\ndata: [DONE]\n\n'
    const sent = Buffer.from(transform.push(Buffer.from(split))!).toString()
    expect(sent).toBe(split.replace('"up"', '"my-alias"'))
  })

  it('with an alias, a model key or name spelled with escapes (`"\\u006dodel"`, `"\\u0075p"`, `\\/`) is rewritten too, as JSON.parse reads it', () => {
    for (const [upstream, written] of [['up', '"\\u006Dodel":"up"'], ['up', '"model":"\\u0075p"'], ['org/up', '"model":"org\\/up"']]) {
      const transform = createStreamTransform(kernel, request('my-alias'), { ...plan, upstreamModel: upstream! })
      const text = `data: {"id":"c","object":"chat.completion.chunk",${written},"choices":[]}\n\ndata: [DONE]\n\n`
      const sent = Buffer.from(transform.push(Buffer.from(text))!).toString()
      expect(JSON.parse(sent.split('\n')[0]!.slice(6)).model, written).toBe('my-alias')
    }
  })

  it('a stream cut mid-event never sends the half event: it is cut, and the failure is an error event in the client format', () => {
    const transform = createStreamTransform(kernel, request('up'), plan)
    expect(transform.push(Buffer.from('data: {"partial"'))).toBeUndefined()
    expect(transform.primed).toBe(false)
    expect(transform.end()).toBeUndefined()
    expect(transform.cut).toMatch(/mid-event/)
    expect(Buffer.from(transform.fail('boom')!).toString()).toContain('boom')
  })

  it('a stream that ends whole events but no terminal event is cut; a last whole event without its blank line still goes', () => {
    const cut = createStreamTransform(kernel, request('up'), plan)
    cut.push(Buffer.from(frame('up', 'a')))
    expect(cut.end()).toBeUndefined()
    expect(cut.cut).toMatch(/before its last event/)
    const whole = createStreamTransform(kernel, request('up'), plan)
    whole.push(Buffer.from(`${frame('up', 'a')}data: [DONE]`))
    expect(Buffer.from(whole.end()!).toString()).toBe('data: [DONE]\n\n')
    expect(whole.cut).toBeUndefined()
  })
})

describe('passthrough: the head of a long first chunk', () => {
  const events = Array.from({ length: 200 }, (_, i) => frame('up', `tok${i} ü`)).join('') + 'data: [DONE]\n\n'
  const pushOnce = (upstream: string | Buffer) => {
    const transform = createStreamTransform(kernel, request('up'), plan)
    const out = transform.push(Buffer.isBuffer(upstream) ? upstream : Buffer.from(upstream))
    return { text: out && Buffer.from(out).toString('utf8'), primed: transform.primed }
  }

  it.each([
    ['starts with an event: sent as it came', events, events],
    ['comments before it: dropped', `: keep-alive\n\n: more\n\n${events}`, events],
    ['over 4 KB of comments before it: dropped', `${': pad\n\n'.repeat(800)}${events}`, events],
    ['junk that is not UTF-8 before it: dropped', Buffer.concat([Buffer.from([0xff, 0xfe, 0x0a, 0x0a]), Buffer.from(events)]), events],
  ])('%s', (_, upstream: string | Buffer, expected) => {
    expect(pushOnce(upstream)).toEqual({ text: expected, primed: true })
  })

  it('a broken first event still throws, whatever follows', () => {
    expect(() => pushOnce(`data: {broken\n\n${events}`)).toThrow(/not valid JSON/)
  })

  it('only comments: nothing sent yet', () => {
    expect(pushOnce(': pad\n\n'.repeat(800))).toEqual({ text: undefined, primed: false })
  })
})

describe('stream transforms', () => {
  it('carry no accessor of their own (one on a per-request object keeps it alive through young collections)', () => {
    const own = (value: object) => Object.values(Object.getOwnPropertyDescriptors(value)).filter(d => d.get || d.set)
    expect(own(createStreamTransform(kernel, request('up'), plan))).toEqual([])
    expect(own(createStreamTransform(kernel, { ...request('up'), body: {} }, { ...plan, passthrough: false }))).toEqual([])
  })
})
