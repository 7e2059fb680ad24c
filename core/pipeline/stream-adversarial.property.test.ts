import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { responsesCodec } from '../../providers/gamma/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'
import type { StreamFrame, WireCodec } from '../canonical/codec.ts'
import type { StreamEvent } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { createFrameParser } from '../framing/frames.ts'
import { Utf8Decoder } from '../framing/utf8-decoder.ts'
import { createStreamTransform } from './stream-transform.ts'

/**
 * Same-format streams against the plain path, with upstream bytes written to trip a byte-level reader:
 * CRLF, LF and lone-CR line ends, `data:` with and without its space, data split over several lines,
 * `event:` names that disagree with the JSON's type, whitespace around a key's colon, comments and pings
 * anywhere, a byte order mark, multibyte characters cut between chunks, chunks down to one byte, usage
 * in several events (strings, negative, huge), events after the terminal one, `[DONE]` variants, a
 * stream cut before its end, long lines. The passthrough (bytes tapped for usage and the end) must
 * report what the translating transform (every frame decoded) reports: usage, cut or whole, the error in
 * the stream, and the client's bytes must decode to the upstream's events (the client's model name for
 * the upstream's: the client asked for `m`, an alias of `up`). The format's error event may
 * come anywhere, with any number of events after it; usage may be followed by any number of data events
 * without a marker, and by a long event (usage far more than 4 KiB before the end); usage events that add
 * up (two message_deltas) may come before such a gap; keys or string values may be spelled with `\u00XX`
 * escapes; a chat stream may open with its usage-only chunk; up to twenty events may follow the terminal
 * one. `FUZZ_RUNS=2000` runs it longer; `SEED` and `FUZZ_PATH` replay a failure.
 */
type Event = { data: unknown; event?: string } | { raw: string }
/** `gap`: data events without a marker right after the (last) usage; `lead`: how a chat stream opens. */
type Shape = { gap: number; lead: 'role' | 'none' | 'usage' }
type Script = (texts: string[], usage: Array<() => unknown>, terminal: boolean, after: number, shape: Shape) => Event[]

const piece = fc.constantFrom('a', 'é', '✓', '🙂', '"', '\\', ' ', '中文', 'x'.repeat(40))
const count = fc.oneof(fc.nat({ max: 5000 }), fc.constantFrom(-3, 2 ** 53 + 2, 1e21, '17', '', null, 1.5))
const counts = fc.array(count, { minLength: 6, maxLength: 6 })

const scripts: Record<string, { codec: WireCodec; ping?: boolean; script: Script }> = {
  chat: {
    codec: chatCodec,
    script: (texts, usage, terminal, after, { gap, lead }) => {
      const chunk = (choices: unknown[], u?: unknown) => ({ data: { id: 'c', object: 'chat.completion.chunk', model: 'up', choices, ...(u !== undefined && { usage: u }) } })
      const usageChunk = () => chunk([], usage.shift()?.() ?? null)
      // Given more than three, the first go in every text chunk as a running total (vLLM's continuous usage).
      let running: unknown = null
      const filler = () => chunk([{ index: 0, delta: { content: 'g' }, finish_reason: null }], null)
      // Opened by the role chunk, as the API does, by text, or by a usage-only chunk.
      return [
        ...(lead === 'role' ? [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }], null)] : lead === 'usage' ? [usageChunk()] : []),
        ...texts.map(t => chunk([{ index: 0, delta: { content: t }, finish_reason: null }], usage.length > 3 ? running = usage.shift()!() : running)),
        // With a gap, the usage chunk comes before it and the finish after it (text after a finish would be
        // events after the terminal one).
        ...(gap ? [usageChunk(), ...Array.from({ length: gap }, filler)] : []),
        ...(terminal ? [chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]), ...(gap ? [] : [usageChunk()]), { raw: '[DONE]' }] : gap ? [] : [usageChunk()]),
        ...Array.from({ length: after }, usageChunk),
      ]
    },
  },
  messages: {
    codec: messagesCodec,
    ping: true,
    script: (texts, usage, terminal, after, { gap }) => {
      const e = (type: string, rest: object) => ({ data: { type, ...rest }, event: type })
      return [
        e('message_start', { message: { id: 'msg', type: 'message', role: 'assistant', model: 'up', content: [], usage: usage.shift()?.() } }),
        e('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ...texts.map(t => e('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } })),
        e('content_block_stop', { index: 0 }),
        // Two message_deltas add up.
        ...usage.splice(0, 2).map(u => e('message_delta', { delta: { stop_reason: 'end_turn' }, usage: u() })),
        ...Array.from({ length: gap }, () => e('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'g' } })),
        ...(terminal ? [e('message_stop', {})] : []),
        ...Array.from({ length: after }, () => e('message_delta', { delta: {}, usage: usage.shift()?.() ?? { output_tokens: 1 } })),
      ]
    },
  },
  responses: {
    codec: responsesCodec,
    script: (texts, usage, terminal, after) => {
      const e = (type: string, rest: object) => ({ data: { type, ...rest }, event: type })
      const response = (status: string) => ({ id: 'r', model: 'up', status, output: [], error: null, usage: status === 'in_progress' ? null : usage.shift()?.() })
      return [
        e('response.created', { response: response('in_progress') }),
        ...texts.map(t => e('response.output_text.delta', { output_index: 0, content_index: 0, item_id: 'i', delta: t })),
        ...(terminal ? [e('response.completed', { response: response('completed') })] : []),
        ...Array.from({ length: after }, () => e('response.completed', { response: response('completed') })),
      ]
    },
  },
  generate: {
    codec: generateCodec,
    script: (texts, usage, terminal, after, { gap }) => {
      const chunk = (parts: unknown[], finish: boolean, metered = true) => ({ data: { modelVersion: 'up', candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish && { finishReason: 'STOP' }) }], ...(metered && { usageMetadata: usage.length > 1 ? usage.shift()!() : usage[0]!() }) } })
      // With a gap, the chunks after the usage carry none, the finish included.
      return [
        ...texts.map((t, i) => chunk([{ text: t }], !gap && terminal && i === texts.length - 1)),
        ...Array.from({ length: gap }, () => chunk([{ text: 'g' }], false, false)),
        ...(terminal && (gap || !texts.length) ? [chunk([], true, !gap)] : []),
        ...Array.from({ length: after }, () => chunk([], false)),
      ]
    },
  },
}

/** Each format's error event, sent in the stream (after a 200); a chat or generateContent relay may send a bare string. */
const errorOf: Record<string, Event> = {
  chat: { data: { error: { message: 'boom', type: 'server_error' } } },
  chatString: { data: { error: 'Input validation error', error_type: 'validation' } },
  generateString: { data: { error: 'boom' } },
  messages: { data: { type: 'error', error: { type: 'overloaded_error', message: 'boom' } }, event: 'error' },
  responses: { data: { type: 'error', code: 'server_error', message: 'boom' }, event: 'error' },
  generate: { data: { error: { code: 503, message: 'boom', status: 'UNAVAILABLE' } } },
}

const usageOf: Record<string, (c: unknown[]) => unknown> = {
  chat: c => ({ prompt_tokens: c[0], completion_tokens: c[1], total_tokens: c[2], prompt_tokens_details: { cached_tokens: c[3] } }),
  messages: c => ({ input_tokens: c[0], output_tokens: c[1], cache_read_input_tokens: c[2], cache_creation_input_tokens: c[3] }),
  responses: c => ({ input_tokens: c[0], output_tokens: c[1], total_tokens: c[2], input_tokens_details: { cached_tokens: c[3] } }),
  generate: c => ({ promptTokenCount: c[0], candidatesTokenCount: c[1], totalTokenCount: c[2], cachedContentTokenCount: c[3], thoughtsTokenCount: c[4] }),
}

/** How one event is written: its line ends, `data:` lines, event name and key spacing. */
const style = fc.record({
  lineEnd: fc.constantFrom('\n', '\r\n', '\r'),
  blank: fc.constantFrom('\n\n', '\r\n\r\n', '\r\r', '\n\r\n', '\r\n\n', '\r\r\n'),
  space: fc.boolean(),
  lines: fc.constantFrom('one', 'one', 'pretty', 'split'),
  eventLine: fc.constantFrom('right', 'right', 'none', 'wrong', 'nospace', 'typeless'),
  colon: fc.constantFrom('', '', ' ', '\t'),
  done: fc.constantFrom('[DONE]', '[DONE]', ' [DONE]', '[DONE] '),
  // A key's or a string value's first letter as a `\u00XX` escape, in either hex case.
  escape: fc.constantFrom('none', 'none', 'none', 'none', 'keys', 'values'),
  upper: fc.boolean(),
})
type Style = typeof style extends fc.Arbitrary<infer T> ? T : never
const filler = (ping: boolean) => fc.constantFrom(': keep-alive', ':', 'retry: 1000', 'id: 7', ...(ping ? ['event: ping\ndata: {"type":"ping"}', 'data: {"type": "ping"}'] : []))

/** The first letter of each key (or each string value) spelled `\u00XX`, the model's included. */
function escaped(json: string, keys: boolean, upper: boolean): string {
  return json.replace(/"((?:[^"\\]|\\.)*)"(\s*:)?/g, (token, body: string, colon: string | undefined) => {
    if (!!colon !== keys || !/^[A-Za-z]/.test(body)) return token
    const hex = body.charCodeAt(0).toString(16).padStart(4, '0')
    return `"\\u${upper ? hex.toUpperCase() : hex}${body.slice(1)}"${colon ?? ''}`
  })
}

function write(event: Event, s: Style): string {
  const field = s.space ? 'data: ' : 'data:'
  if ('raw' in event) return `data:${s.done === '[DONE]' && s.space ? ' ' : ''}${s.done}${s.blank}`
  // Typeless: the type named by the event line only (the decoders read it there when the data has none).
  const data = s.eventLine === 'typeless' && event.event ? { ...(event.data as object), type: undefined } : event.data
  let json = s.lines === 'pretty' ? JSON.stringify(data, null, 1) : JSON.stringify(data)
  if (s.escape !== 'none') json = escaped(json, s.escape === 'keys', s.upper)
  // Texts hold no `:`, so `":` is always a key's end.
  if (s.colon) json = json.replaceAll('":', `"${s.colon}:${s.colon}`)
  // Split after a key's colon or a comma: any JSON whitespace may stand there, a line end too.
  const lines = s.lines === 'split' ? json.replace(/(":|,)/g, '$1\n').split('\n') : json.split('\n')
  const name = event.event && (s.eventLine === 'right' || s.eventLine === 'typeless' ? `event: ${event.event}` : s.eventLine === 'nospace' ? `event:${event.event}` : s.eventLine === 'wrong' ? 'event: content_block_delta' : undefined)
  return [...(name ? [name] : []), ...lines.map(line => field + line)].join(s.lineEnd) + s.blank
}

const stream = (format: string) => fc.record({
  texts: fc.array(fc.array(piece, { minLength: 1, maxLength: 4 }).map(p => p.join('')), { maxLength: 10 }),
  long: fc.boolean(),
  usages: fc.array(counts, { minLength: 1, maxLength: 5 }),
  terminal: fc.boolean(),
  after: fc.constantFrom(0, 0, 0, 1, 2, 9, 20),
  // Seven or more: the usage is beyond the last eight data events; forty or a long text after it: beyond 4 KiB.
  gap: fc.constantFrom(0, 0, 0, 7, 8, 40),
  lead: fc.constantFrom('role', 'role', 'none', 'usage') as fc.Arbitrary<Shape['lead']>,
  styles: fc.infiniteStream(style),
  fillers: fc.array(fc.tuple(fc.nat(), filler(!!scripts[format]!.ping)), { maxLength: 12 }),
  bom: fc.boolean(),
  cuts: fc.oneof({ arbitrary: fc.array(fc.nat(), { maxLength: 40 }), weight: 3 }, { arbitrary: fc.constant('bytes' as const), weight: 1 }),
  truncate: fc.option(fc.nat(), { freq: 4 }),
  asked: fc.boolean(),
  error: fc.option(fc.nat(), { freq: 4 }),
})

type Input = ReturnType<typeof stream> extends fc.Arbitrary<infer T> ? T : never

function build(format: string, input: Input): Buffer {
  const { texts, long, usages, terminal, styles, fillers, bom, lead } = input
  const all = long ? [...texts, 'é✓'.repeat(40_000)] : texts
  const usage = usages.map(c => () => usageOf[format]!(c))
  const events = scripts[format]!.script(all, usage, terminal, input.after, { gap: input.gap, lead })
  if (input.error !== null) {
    const at = input.error % (events.length + 1)
    const error = (format === 'chat' || format === 'generate') && input.error % 2 ? errorOf[`${format}String`]! : errorOf[format]!
    events.splice(at, 0, error)
  }
  const styled = styles[Symbol.iterator]()
  const written = events.map(event => write(event, styled.next().value!))
  for (const [at, text] of fillers) written.splice(at % (written.length + 1), 0, `${text}${styled.next().value!.blank}`)
  const bytes = Buffer.from(written.join(''))
  return bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]) : bytes
}

/** `complete`: the answer's last event went by while the upstream was read (before its end), and after it. */
type Outcome = { primed?: boolean; threw?: string; usage?: unknown; cut?: string; settled?: boolean; error?: string; delivered?: number; complete?: [boolean, boolean]; sent: Buffer }

function run(format: string, passthrough: boolean, bytes: Buffer, cuts: number[], asked: boolean, broke: boolean): Outcome {
  const codec = scripts[format]!.codec
  const kernel = { formats: new Map([[format, codec]]) } as unknown as ProxyKernel
  const request = { inbound: format, model: 'm', body: asked ? { stream_options: { include_usage: true } } : {} } as unknown as ProxyRequest
  const transform = createStreamTransform(kernel, request, { upstream: format, upstreamModel: 'up', sse: true, passthrough })
  const sent: Buffer[] = []
  try {
    let from = 0
    for (const at of [...cuts, bytes.length]) {
      // The answer's last event went by: stream.ts reads no further and ends it (the upstream may hold on).
      if (at <= from || transform.complete) continue
      const out = transform.push(bytes.subarray(from, at))
      if (out) sent.push(Buffer.from(out))
      from = at
    }
    // Nothing whole before the upstream's end: stream.ts fails over ("before its first event"), never ends it.
    if (!transform.primed) return { primed: false, sent: Buffer.concat(sent) }
    // A stream that broke is settled (stream.ts #fail); one that ended, or completed before the break, is ended.
    const before = transform.complete
    const ends = !broke || before
    const settled = ends ? undefined : transform.settle()
    if (ends) {
      const out = transform.end()
      if (out) sent.push(Buffer.from(out))
    }
    return { usage: transform.usage, cut: transform.cut, settled, error: transform.upstreamError, delivered: transform.delivered, complete: [before, transform.complete], sent: Buffer.concat(sent) }
  } catch (error) {
    return { threw: (error as Error).name, sent: Buffer.concat(sent) }
  }
}

/** An SSE byte stream's frames, as the plain path reads them. */
function frames(bytes: Buffer): StreamFrame[] {
  const parser = createFrameParser()
  const text = new Utf8Decoder()
  return [...parser.push(text.write(bytes)), ...parser.push(text.end()), ...parser.end()]
}

/** Every frame through a fresh decoder, up to its terminal event (the finish, read with the usage, aside). */
function decoded(codec: WireCodec, bytes: Buffer): StreamEvent[] {
  const decoder = codec.stream.createDecoder()
  const out: StreamEvent[] = []
  for (const frame of frames(bytes)) if (!decoder.terminated?.()) out.push(...decoder.push(frame))
  return out.filter(event => event.type !== 'finish')
}

/**
 * Whether the client's bytes end with the answer's last event: it is their last frame (the first to
 * complete a decoder), and no byte follows its blank line (no event, comment or ping after it).
 */
function endsAtItsLastEvent(codec: WireCodec, sent: Buffer): boolean {
  const decoder = codec.stream.createDecoder()
  const all = frames(sent)
  const at = all.findIndex((frame) => {
    decoder.push(frame)
    return decoder.complete?.()
  })
  const text = sent.toString('latin1')
  return at === all.length - 1 && /^data:[^\r\n]*[\r\n]+$/.test(text.slice(text.lastIndexOf('data:')))
}

describe('same-format streams, written adversarially: the passthrough reports what decoding every frame reports', () => {
  for (const format of Object.keys(scripts)) {
    it(format, () => {
      fc.assert(fc.property(stream(format), (input) => {
        const whole = build(format, input)
        const bytes = input.truncate === null ? whole : whole.subarray(0, input.truncate % (whole.length + 1))
        const cuts = input.cuts === 'bytes' ? Array.from({ length: Math.min(bytes.length, 4000) }, (_, i) => i) : input.cuts.map(cut => cut % (bytes.length + 1)).sort((a, b) => a - b)
        const asked = format !== 'chat' || input.asked
        for (const broke of [false, true]) {
          const fast = run(format, true, bytes, cuts, asked, broke)
          const plain = run(format, false, bytes, cuts, asked, broke)
          const { sent, ...fastSeen } = fast
          const { sent: _, ...plainSeen } = plain
          expect(fastSeen, `broke ${broke}: ${JSON.stringify(bytes.toString('latin1'))}`).toEqual(plainSeen)
          if (fast.threw || fast.primed === false || broke) continue
          // The client's bytes mean what the upstream's meant; a chat client that did not ask for usage gets no usage-only chunk.
          const codec = scripts[format]!.codec
          // (That chunk, when it is the only one, was the start; and an error after it carries its usage.)
          const meant = (events: StreamEvent[]) => asked ? events : events.filter(event => event.type !== 'start').map(event => event.type === 'error' ? { ...event, usage: undefined } : event)
          // The client asked for `m`, the upstream answered as `up`: the client reads `m`.
          const renamed = (events: StreamEvent[]) => events.map(event => event.type === 'start' ? { ...event, model: 'm' } : event)
          expect(meant(decoded(codec, sent))).toEqual(meant(renamed(decoded(codec, bytes))))
          if (!asked && !input.after) expect(frames(sent).filter(frame => codec.stream.usageOption!.usageOnly(frame))).toEqual([])
          if (fast.complete?.[1]) expect(endsAtItsLastEvent(codec, sent), JSON.stringify(sent.toString('latin1'))).toBe(true)
        }
      }), { numRuns: Number(process.env.FUZZ_RUNS ?? 100), ...(process.env.SEED && { seed: Number(process.env.SEED), path: process.env.FUZZ_PATH }) })
    })
  }
})
