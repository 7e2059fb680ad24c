import { describe, expect, it } from 'vitest'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'
import { responsesCodec } from '../../providers/gamma/codec/index.ts'
import type { WireCodec } from '../canonical/codec.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { createStreamTransform } from './stream-transform.ts'

/**
 * Same-format streams written as SSE and JSON allow but the usual upstream does not: the passthrough
 * (bytes tapped) reports what the translating transform (every frame decoded) reports, and a client
 * that did not ask for usage gets none of it. Each case failed before its fix; the adversarial property
 * test (stream-adversarial.property.test.ts) found them.
 */
const codecs: Record<string, WireCodec> = { chat: chatCodec, messages: messagesCodec, generate: generateCodec, responses: responsesCodec }

function both(format: string, chunks: string[], body: object = { stream_options: { include_usage: true } }) {
  const kernel = { formats: new Map([[format, codecs[format]!]]) } as unknown as ProxyKernel
  const request = { inbound: format, model: 'm', body } as unknown as ProxyRequest
  const [fast, plain] = [true, false].map(passthrough => {
    const transform = createStreamTransform(kernel, request, { upstream: format, upstreamModel: 'm', sse: true, passthrough })
    let sent = ''
    for (const chunk of chunks) sent += Buffer.from(transform.push(Buffer.from(chunk)) ?? []).toString()
    sent += Buffer.from(transform.end() ?? []).toString()
    return { seen: { usage: transform.usage, cut: transform.cut, error: transform.upstreamError }, sent }
  })
  return { fast: fast!, plain: plain! }
}

const chunk = (usage: string, choices = '[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]') => `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":${choices},"usage":${usage}}\n\n`
const usage = (n: number) => `{"prompt_tokens":${n},"completion_tokens":${n + 1},"total_tokens":${2 * n + 1}}`

describe('usage tap: markers wherever JSON and SSE allow them', () => {
  it('chat: `"usage" : {` (a space before the colon) is read as `"usage":{` is', () => {
    const text = chunk('null') + chunk('null', '[{"index":0,"delta":{},"finish_reason":"stop"}]') + chunk(usage(7), '[]').replace('"usage":', '"usage" : ') + 'data: [DONE]\n\n'
    const { fast, plain } = both('chat', [text])
    expect(plain.seen.usage).toMatchObject({ inputTokens: 7, outputTokens: 8 })
    expect(fast.seen).toEqual(plain.seen)
  })

  it('chat, usage not asked: a usage-only chunk written `"choices": [ ]` never reaches the client, and counts', () => {
    const only = chunk(usage(7), '[ ]')
    const text = chunk('null', '[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]') + only + 'data: [DONE]\n\n'
    const { fast, plain } = both('chat', [text], {})
    expect(fast.seen).toEqual(plain.seen)
    expect(fast.seen.usage).toMatchObject({ inputTokens: 7 })
    expect(fast.sent).not.toContain('"prompt_tokens"')
  })

  it('generateContent: usageMetadata and finishReason with their values on the next data line', () => {
    const event = '{"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]},"finishReason":\r\ndata: "STOP","index":0}],"usageMetadata":\r\ndata: {"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7}}'
    const { fast, plain } = both('generate', [`data: ${event}\r\n\r\n`])
    expect(plain.seen).toMatchObject({ usage: { inputTokens: 5, outputTokens: 2 }, cut: undefined })
    expect(fast.seen).toEqual(plain.seen)
  })

  it('messages: an error event whose `"error" : {` has a space before the colon fails the answer on both paths', () => {
    const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"m","usage":{"input_tokens":9,"output_tokens":1}}}\n\n'
    const error = 'event: error\ndata: {"type":"error","error" : {"type":"overloaded_error","message":"busy"}}\n\n'
    const { fast, plain } = both('messages', [start, error])
    // The usage message_start reported counts on both paths (the translating path took usage from a finish only).
    expect(plain.seen).toMatchObject({ error: 'busy', cut: undefined, usage: { inputTokens: 9, outputTokens: 1 } })
    expect(fast.seen).toEqual(plain.seen)
  })
})

describe('a stream that ends with half an event', () => {
  const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"m","usage":{"input_tokens":9,"output_tokens":1}}}\n\n'
  const stop = 'event: message_stop\ndata: {"type":"message_stop"}\n\n'

  it('after its terminal event: whole on both paths (the half event is no part of the answer)', () => {
    const { fast, plain } = both('messages', [start, stop, 'event: ping\ndata: {"ty'])
    expect(plain.seen.cut).toBeUndefined()
    expect(fast.seen).toEqual(plain.seen)
  })

  it('before it: cut, in the same words on both paths', () => {
    for (const half of ['data: {"type":"message_de', 'data', 'data\r\ndata: {']) {
      const { fast, plain } = both('messages', [start, half])
      expect(plain.seen.cut, half).toBe('the upstream stream ended mid-event')
      expect(fast.seen, half).toEqual(plain.seen)
    }
  })
})

describe('chat, usage not asked, a running total in every chunk (vLLM continuous_usage_stats)', () => {
  it('the usage-only chunk at the end counts, not the last running total before it', () => {
    const text = chunk(usage(3)) + chunk(usage(4), '[{"index":0,"delta":{},"finish_reason":"stop"}]') + chunk(usage(9), '[]') + 'data: [DONE]\n\n'
    for (const chunks of [[text], text.split(/(?<=\n\n)/)]) {
      const { fast, plain } = both('chat', chunks, {})
      expect(plain.seen.usage).toMatchObject({ inputTokens: 9, outputTokens: 10 })
      expect(fast.seen).toEqual(plain.seen)
      expect(fast.sent).not.toContain('"choices":[]')
    }
  })
})

describe('chat, usage not asked: keep-alive comments around [DONE] in the same read', () => {
  it('the usage-only chunk still never reaches the client, and counts', () => {
    const text = `${chunk('null', '[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]')}${chunk(usage(7), '[]')}: keep-alive\n\ndata: [DONE]\n\n: keep-alive\n\n: keep-alive\n\n`
    const { fast, plain } = both('chat', [text], {})
    expect(fast.seen).toEqual(plain.seen)
    expect(fast.seen.usage).toMatchObject({ inputTokens: 7 })
    expect(fast.sent).not.toContain('"prompt_tokens"')
  })
})

describe('chat, usage not asked: a usage-only chunk among the first events', () => {
  it('an error chunk right after it is still read (its place was the usage chunk\'s before that was taken out)', () => {
    const role = chunk('null', '[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]')
    const text = `${role}${chunk(usage(7), '[]')}data: {"error":{"message":"boom","type":"server_error"}}\n\n`
    const { fast, plain } = both('chat', [text], {})
    expect(plain.seen).toMatchObject({ error: 'boom', cut: undefined, usage: { inputTokens: 7 } })
    expect(fast.seen).toEqual(plain.seen)
  })
})

describe('messages: pings before the answer opens', () => {
  const ping = 'event: ping\ndata: {"type": "ping"}\n\n'
  it('a stream of pings opens no answer (it fails over, as a translated one does); pings before message_start are dropped', () => {
    const kernel = { formats: new Map([['messages', messagesCodec]]) } as unknown as ProxyKernel
    const request = { inbound: 'messages', model: 'm', body: {} } as unknown as ProxyRequest
    const primed = [true, false].map(passthrough => {
      const transform = createStreamTransform(kernel, request, { upstream: 'messages', upstreamModel: 'm', sse: true, passthrough })
      transform.push(Buffer.from(ping + ping))
      return transform.primed
    })
    expect(primed).toEqual([false, false])
    const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"m","usage":{"input_tokens":9,"output_tokens":1}}}\n\n'
    const { fast, plain } = both('messages', [ping, ping + start, 'event: message_stop\ndata: {"type":"message_stop"}\n\n'])
    expect(fast.seen).toEqual(plain.seen)
    expect(fast.sent.startsWith('event: message_start')).toBe(true)
  })
})

describe('an error sent as a bare message ({"error": "..."}), as some chat servers and relays do', () => {
  it('chat: the answer failed, with [DONE] after it or not', () => {
    const error = 'data: {"error":"Input validation error","error_type":"validation"}\n\n'
    for (const done of ['data: [DONE]\n\n', '']) {
      const { fast, plain } = both('chat', [chunk('null'), error + done])
      expect(plain.seen).toMatchObject({ error: 'upstream stream error', cut: undefined })
      expect(fast.seen).toEqual(plain.seen)
    }
  })

  it('generateContent: the answer failed', () => {
    const text = 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]},"index":0}]}\n\ndata: {"error": "boom"}\n\n'
    const { fast, plain } = both('generate', [text])
    expect(plain.seen).toMatchObject({ error: 'upstream stream error', cut: undefined })
    expect(fast.seen).toEqual(plain.seen)
  })
})

describe('events named by their event line only (data without a type: the decoders read the type there)', () => {
  it('messages: message_delta and message_stop', () => {
    const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"m","usage":{"input_tokens":9,"output_tokens":1}}}\n\n'
    const { fast, plain } = both('messages', [start, 'event: message_delta\ndata: {"delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":30}}\n\nevent: message_stop\ndata: {}\n\n'])
    expect(plain.seen).toMatchObject({ usage: { inputTokens: 9, outputTokens: 30 }, cut: undefined })
    expect(fast.seen).toEqual(plain.seen)
  })

  it('responses: response.completed', () => {
    const created = 'event: response.created\ndata: {"type":"response.created","response":{"id":"r","status":"in_progress","output":[]}}\n\n'
    const { fast, plain } = both('responses', [created, 'event: response.completed\ndata: {"response":{"id":"r","status":"completed","output":[],"usage":{"input_tokens":5,"output_tokens":6}}}\n\n'])
    expect(plain.seen).toMatchObject({ usage: { inputTokens: 5, outputTokens: 6 }, cut: undefined })
    expect(fast.seen).toEqual(plain.seen)
  })
})
