import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { responsesCodec } from '../../providers/gamma/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'
import type { WireCodec } from '../canonical/codec.ts'
import type { StreamEvent, Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { createFrameParser } from '../framing/frames.ts'
import { createStreamTransform } from './stream-transform.ts'
import { escapeRegExp } from './stream-markers.ts'

/**
 * The usage tap against the plain path: for any way the upstream cuts its stream into chunks, the
 * same-format transform gives the client the upstream's bytes and reads the same usage the format's
 * decoder reads from every frame; a stream without its terminal event is cut.
 */
const sse = (data: unknown, event?: string, end = '\n\n') => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}${end}`
const text = (n: number) => Array.from({ length: n }, (_, i) => `tok${i} "q" é✓ `)

const streams: Record<string, { codec: WireCodec; events: (n: number) => string[] }> = {
  chat: {
    codec: chatCodec,
    events: n => [
      ...text(n).map(t => sse({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content: t }, finish_reason: null }], usage: null })),
      sse({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null }),
      sse({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [], usage: { prompt_tokens: 900, completion_tokens: n, total_tokens: 900 + n, prompt_tokens_details: { cached_tokens: 700 }, completion_tokens_details: { reasoning_tokens: 3 } } }),
      'data: [DONE]\n\n',
    ],
  },
  messages: {
    codec: messagesCodec,
    events: n => [
      ': keep-alive\n\n',
      sse({ type: 'message_start', message: { id: 'msg', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 100, cache_read_input_tokens: 700, cache_creation_input_tokens: 100, output_tokens: 1 } } }, 'message_start'),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      ...text(n).map(t => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } }, 'content_block_delta')),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: n } }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
  },
  responses: {
    codec: responsesCodec,
    events: n => [
      sse({ type: 'response.created', response: { id: 'r', status: 'in_progress', output: [], usage: null, error: null } }, 'response.created'),
      ...text(n).map(t => sse({ type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: 'i', delta: t }, 'response.output_text.delta')),
      sse({ type: 'response.completed', response: { id: 'r', status: 'completed', output: [], error: null, usage: { input_tokens: 900, output_tokens: n, input_tokens_details: { cached_tokens: 700 }, output_tokens_details: { reasoning_tokens: 3 } } } }, 'response.completed'),
    ],
  },
  generate: {
    codec: generateCodec,
    events: n => text(n).map((t, i) => sse({ candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0, ...(i === n - 1 && { finishReason: 'STOP' }) }], usageMetadata: { promptTokenCount: 900, cachedContentTokenCount: 700, candidatesTokenCount: i + 1, thoughtsTokenCount: 3, totalTokenCount: 904 + i } }, undefined, '\r\n\r\n')),
  },
}

/** The plain path: every frame through the format's decoder. */
function decodedUsage(codec: WireCodec, whole: string): Usage | undefined {
  const decoder = codec.stream.createDecoder()
  const parser = createFrameParser()
  const events: StreamEvent[] = []
  for (const frame of [...parser.push(whole), ...parser.end()]) events.push(...decoder.push(frame))
  events.push(...decoder.end())
  return events.find(event => event.type === 'finish')?.usage
}

/** `body`: the client's request (by default one that asked for usage). */
function passThrough(format: string, bytes: Buffer, cuts: number[], body: object = { stream_options: { include_usage: true } }) {
  const kernel = { formats: new Map([[format, streams[format]!.codec]]) } as unknown as ProxyKernel
  const request = { inbound: format, model: 'm', body } as unknown as ProxyRequest
  const transform = createStreamTransform(kernel, request, { upstream: format, upstreamModel: 'm', sse: true, passthrough: true })
  const out: Buffer[] = []
  let from = 0
  for (const at of [...cuts.filter(cut => cut > 0 && cut < bytes.length).sort((a, b) => a - b), bytes.length]) {
    const piece = transform.push(bytes.subarray(from, at))
    if (piece) out.push(Buffer.from(piece))
    from = at
  }
  const tail = transform.end()
  if (tail) out.push(Buffer.from(tail))
  return { text: Buffer.concat(out).toString('utf8'), usage: transform.usage, cut: transform.cut }
}

describe('usage tap', () => {
  for (const format of Object.keys(streams)) {
    it(`${format}: any chunking gives the upstream's bytes and the decoder's usage`, () => {
      fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.nat(), { maxLength: 30 }), (n, cuts) => {
        const events = streams[format]!.events(n)
        const whole = events.join('')
        const bytes = Buffer.from(whole)
        const { text: sent, usage, cut } = passThrough(format, bytes, cuts.map(cut => cut % bytes.length))
        expect(sent).toBe(whole.startsWith(': keep-alive') ? whole.slice(': keep-alive\n\n'.length) : whole)
        expect(usage).toEqual(decodedUsage(streams[format]!.codec, whole))
        expect(usage?.inputTokens).toBe(900)
        expect(cut).toBeUndefined()
      }), { numRuns: 60 })
    })

    it(`${format}: any mix of line ends (\\n, \\r\\n, \\r) and any chunking: the upstream's bytes, its first event first, the plain parser's usage`, () => {
      // Line ends within an event, and the pairs that end one (a lone \\r never meets the \\n after it: that would be one \\r\\n).
      const lineEnd = fc.constantFrom('\n', '\r\n', '\r')
      const blank = fc.constantFrom('\n\n', '\r\n\r\n', '\n\r\n', '\r\n\n', '\r\r', '\r\r\n', '\n\r', '\r\n\r')
      fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.infiniteStream(lineEnd), fc.infiniteStream(blank), fc.array(fc.nat(), { maxLength: 20 }), (n, lineEnds, blanks, cuts) => {
        const lines = lineEnds[Symbol.iterator]()
        const blankLines = blanks[Symbol.iterator]()
        const events = streams[format]!.events(n).map(event => {
          const body = event.replace(/(\r\n|\n)+$/, '').split(/\r\n|\n/).join(lines.next().value!)
          return body + blankLines.next().value!
        })
        const whole = events.join('')
        const bytes = Buffer.from(whole)
        const { text: sent, usage, cut } = passThrough(format, bytes, cuts.map(cut => cut % bytes.length))
        expect(sent).toBe(events.slice(events.findIndex(event => event.includes('data:'))).join(''))
        expect(usage).toEqual(decodedUsage(streams[format]!.codec, whole))
        expect(usage?.inputTokens).toBe(900)
        expect(cut).toBeUndefined()
      }), { numRuns: 150 })
    })

    it(`${format}: pings and comments anywhere, however many after the usage, each its own write or not: the plain parser's usage`, () => {
      const filler = fc.constantFrom(': keep-alive\n\n', ':\n\n', 'event: ping\ndata: {"type": "ping"}\n\n', 'data: {"type":"ping"}\n\n', 'retry: 1000\n\n')
      fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.tuple(fc.nat(), filler), { maxLength: 60 }), fc.boolean(), (n, inserts, ownWrites) => {
        const events = streams[format]!.events(n)
        const first = events.findIndex(event => event.includes('data:'))
        // Most after the last few events, where the usage and the terminal event are.
        for (const [at, text] of inserts) events.splice(Math.max(first + 1, events.length - (at % 4)), 0, text)
        if (format === 'chat' || format === 'generate') for (let i = events.length - 1; i >= 0; i--) if (events[i]!.includes('ping')) events.splice(i, 1) // pings are the messages format's
        const whole = events.join('')
        const bytes = Buffer.from(whole)
        const cuts = ownWrites ? events.map((_, i) => Buffer.byteLength(events.slice(0, i).join(''))) : []
        const { text: sent, usage, cut } = passThrough(format, bytes, cuts)
        // Up to the answer's last event: what follows it goes nowhere (generateContent has none: all of it goes).
        const last = format === 'generate' ? events.length : events.findLastIndex(event => /\[DONE\]|message_stop|response\.completed/.test(event)) + 1
        expect(sent).toBe(events.slice(first, last).join(''))
        expect(usage).toEqual(decodedUsage(streams[format]!.codec, whole))
        expect(usage?.inputTokens).toBe(900)
        expect(cut).toBeUndefined()
      }), { numRuns: 200 })
    })

    it(`${format}: without its terminal event, or cut mid-event, the stream is cut`, () => {
      fc.assert(fc.property(fc.integer({ min: 3, max: 30 }), fc.array(fc.nat(), { maxLength: 10 }), fc.nat(), (n, cuts, within) => {
        const events = streams[format]!.events(n)
        // Everything up to a text event: no finish, no terminal event.
        const early = events.slice(0, events.findIndex(event => event.includes('tok1 ')) + 1).join('')
        const bytes = Buffer.from(early)
        expect(passThrough(format, bytes, cuts.map(cut => cut % bytes.length)).cut).toMatch(/before its last event/)
        // Half of the last event, after whole ones: never sent, and the stream is cut. Cut inside its JSON: a
        // whole data line that lacks only its blank line is dispatched at the end, as the plain parser does.
        const last = events.at(-1)!
        const jsonEnd = last.lastIndexOf('}')
        const half = Buffer.from(early + last.slice(0, 1 + (within % ((jsonEnd === -1 ? last.length - 3 : jsonEnd) - 1))))
        const result = passThrough(format, half, [bytes.length])
        expect(result.cut).toBeDefined()
        expect(result.text.length).toBeLessThanOrEqual(early.length)
      }), { numRuns: 40 })
    })
  }

  it('chat: a client that did not ask for usage never sees the usage-only chunk; the usage is read all the same', () => {
    const kernel = { formats: new Map([['chat', chatCodec]]) } as unknown as ProxyKernel
    const request = { inbound: 'chat', model: 'm', body: {} } as unknown as ProxyRequest
    const events = streams.chat!.events(5)
    for (const chunks of [[events.join('')], events]) {
      const transform = createStreamTransform(kernel, request, { upstream: 'chat', upstreamModel: 'm', sse: true, passthrough: true })
      let sent = ''
      for (const chunk of chunks) sent += Buffer.from(transform.push(Buffer.from(chunk)) ?? []).toString()
      sent += Buffer.from(transform.end() ?? []).toString()
      expect(sent).toBe(events.filter(event => !event.includes('"choices":[]')).join(''))
      expect(transform.usage).toMatchObject({ inputTokens: 900, outputTokens: 5, cachedInputTokens: 700, reasoningTokens: 3 })
    }
  })

  it('chat, usage not asked: a usage-only chunk after [DONE] is no part of the answer, as the plain parser finds; before it, it counts', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 12 }), (n, after, cuts) => {
      const events = streams.chat!.events(n)
      const usage = events.splice(events.findIndex(event => event.includes('"choices":[]')), 1)[0]!
      events.splice(after ? events.length : events.length - 1, 0, usage)
      const whole = events.join('')
      const bytes = Buffer.from(whole)
      const result = passThrough('chat', bytes, cuts.map(cut => cut % bytes.length), {})
      expect(result.text).toBe(events.filter(event => event !== usage).join(''))
      expect(result.usage).toEqual(decodedUsage(chatCodec, whole))
      expect(result.usage?.inputTokens ?? 0).toBe(after ? 0 : 900)
    }), { numRuns: 200 })
  })

  it('chat, usage not asked: any chunking, brackets in the text included, drops only the usage-only chunk', () => {
    const bracketed = fc.constantFrom('[]', '[ ]', ']', '[', 'a[i]', '"choices":[]', 'x')
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.array(bracketed, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), (n, pieces, cuts) => {
      const events = streams.chat!.events(n)
      events.splice(1, 0, sse({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content: pieces.join('') }, finish_reason: null }], usage: null }))
      const bytes = Buffer.from(events.join(''))
      const { text, usage } = passThrough('chat', bytes, cuts.map(cut => cut % bytes.length), {})
      expect(text).toBe(events.filter(event => !event.includes('"choices":[],')).join(''))
      expect(usage).toMatchObject({ inputTokens: 900, outputTokens: n })
    }), { numRuns: 300 })
  })
})

describe('usage tap: the head of a stream', () => {
  for (const format of Object.keys(streams)) {
    it(`${format}: a UTF-8 BOM before the first event is dropped, as the SSE parser drops it: every event reaches the client`, () => {
      const whole = streams[format]!.events(5).join('').replace(/^: keep-alive\n\n/, '')
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(whole)])
      for (const cuts of [[], [1], [2, 3, 4]]) {
        const { text: sent, usage, cut } = passThrough(format, bytes, cuts)
        expect(sent).toBe(whole)
        expect(usage).toEqual(decodedUsage(streams[format]!.codec, whole))
        expect(cut).toBeUndefined()
      }
    })
  }

  it('messages: a ping before message_start does not hide the prompt usage', () => {
    const events = streams.messages!.events(20)
    events.splice(1, 0, sse({ type: 'ping' }, 'ping'))
    const whole = events.join('')
    for (const cuts of [[], events.map((_, i) => Buffer.byteLength(events.slice(0, i).join('')))]) {
      const { usage } = passThrough('messages', Buffer.from(whole), cuts)
      expect(usage).toEqual(decodedUsage(messagesCodec, whole))
      expect(usage).toMatchObject({ cachedInputTokens: 700, cacheCreationInputTokens: 100 })
    }
  })
})

describe('escapeRegExp', () => {
  it('needles escaped and joined match exactly when some needle is in the text (regular expression characters included)', () => {
    const piece = fc.constantFrom('"usage"', ':', ' ', '{', '"', '[DONE]', '[', ']', '.', '*', '(', '|', '\\', '$', 'a', 'é')
    const text = fc.array(piece, { maxLength: 12 }).map(pieces => pieces.join(''))
    fc.assert(fc.property(fc.array(text, { maxLength: 4 }), text, (needles, haystack) => {
      const wanted = needles.some(needle => haystack.includes(needle))
      expect(needles.length > 0 && new RegExp(needles.map(escapeRegExp).join('|')).test(haystack)).toBe(wanted)
    }), { numRuns: 2000 })
  })
})
