import fc from 'fast-check'
import type { WireCodec } from '../../../core/canonical/codec.ts'
import type { CanonicalResponse, StreamEvent, Usage } from '../../../core/canonical/types.ts'
import { defineProxyPlugin } from '../../../core/plugin-host/plugin.ts'
import { chatCodec } from '../../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../../providers/beta/codec/index.ts'
import { responsesCodec } from '../../../providers/gamma/codec/index.ts'
import { generateCodec } from '../../../providers/alpha/codec/index.ts'
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../../helpers/proxy-server.ts'
import type { UpstreamFamily } from './answers.ts'
import { geminiStream, geminiWhole } from './gemini-wire.ts'
import { usageToMessages } from '../../../providers/beta/codec/usage.ts'

/**
 * A scripted upstream per family serving one canonical answer in its family's wire format, whole or
 * streamed (the family codec's encoders write the vendor's shapes; their fixtures test them against
 * recorded vendor bodies), cut into writes at random byte boundaries.
 */

export const familyCodecs: Record<UpstreamFamily, WireCodec> = { compat: chatCodec, beta: messagesCodec, gamma: responsesCodec, alpha: generateCodec }
export const familyModel = (family: UpstreamFamily) => `fuzz-${family}`

/** Code points, so that a delta never splits a surrogate pair (vendors send whole characters in JSON strings). */
function split(text: string, cuts: number[]): string[] {
  const points = [...text]
  const at = [...new Set(cuts.map(cut => cut % (points.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let from = 0
  for (const cut of [...at, points.length]) {
    if (cut <= from && out.length) continue
    out.push(points.slice(from, cut).join(''))
    from = cut
  }
  const pieces = out.filter(Boolean)
  return pieces.length ? pieces : ['']
}

/**
 * The answer as canonical stream events, each text cut at `cuts` (code point offsets, mod length).
 * `interleave`: tool calls in a row stream their argument pieces in turns (a chat upstream's parallel calls).
 */
export function answerEvents(answer: CanonicalResponse, cuts: number[], interleave = false, bareCalls?: 'none' | 'empty'): StreamEvent[] {
  const events: StreamEvent[] = [{ type: 'start', id: answer.id, model: answer.model }]
  let calls: Array<{ index: number; pieces: string[] }> = []
  const flushCalls = () => {
    for (let turn = 0; calls.some(call => call.pieces.length > turn); turn++) {
      for (const call of calls) if (call.pieces.length > turn) events.push({ type: 'tool_call_delta', index: call.index, delta: call.pieces[turn]! })
    }
    calls = []
  }
  answer.parts.forEach((part, index) => {
    if (part.type !== 'tool_call') flushCalls()
    switch (part.type) {
      case 'text':
        for (const delta of split(part.text, cuts)) events.push({ type: 'text', index, delta, ...(part.refusal && { refusal: true }) })
        for (const citation of part.citations ?? []) events.push({ type: 'citation', index, citation })
        return
      case 'thinking':
        if (part.redacted) {
          events.push({ type: 'thinking', index, delta: '', redacted: true, signature: part.signature, origin: part.origin })
          return
        }
        for (const delta of split(part.text, cuts)) events.push({ type: 'thinking', index, delta, ...(part.origin && { origin: part.origin }) })
        // The vendor's signature comes once the thinking is done (messages signature_delta, a reasoning item's done).
        if (part.signature) events.push({ type: 'thinking', index, delta: '', signature: part.signature, origin: part.origin })
        return
      case 'tool_call':
        events.push({ type: 'tool_call_start', index, id: part.id, name: part.name })
        // A call without arguments may stream no argument text (chat, responses) or one empty piece (messages).
        calls.push({ index, pieces: part.arguments === '{}' && bareCalls ? bareCalls === 'none' ? [] : [''] : split(part.arguments, cuts) })
        if (!interleave) flushCalls()
        return
      case 'web_search':
        events.push({ type: 'web_search', index, search: part })
        return
      default:
        throw new Error(`no stream for ${part.type}`)
    }
  })
  flushCalls()
  events.push({ type: 'finish', reason: answer.finishReason, ...(answer.usage && { usage: answer.usage }), ...(answer.stopSequence && { stopSequence: answer.stopSequence }) })
  return events
}

/** How a stream is written: cut anywhere, one event a write, or several events a write. */
export type Writes = { kind: 'bytes'; cuts: number[] } | { kind: 'events' } | { kind: 'batches'; size: number }
export const writesArbitrary: fc.Arbitrary<Writes> = fc.oneof(
  fc.record({ kind: fc.constant('bytes' as const), cuts: fc.array(fc.nat(100_000), { maxLength: 30 }) }),
  fc.constant({ kind: 'events' as const }),
  fc.record({ kind: fc.constant('batches' as const), size: fc.integer({ min: 2, max: 6 }) }),
)

/** The whole body and the stream's writes for one answer. */
export interface Script { whole: string; writes: Uint8Array[] }

/**
 * Anthropic's own usage split: message_start has the input and cache counts (output 1), message_delta
 * only the output count.
 */
function usageSplit(sse: string, usage: Usage | undefined): string {
  return sse.split(/(?<=\n\n)/).map(frame => {
    const [head, data] = frame.split('\ndata: ') as [string, string]
    if (!data || !usage) return frame
    const body = JSON.parse(data) as { type: string; message?: { usage: unknown }; usage?: unknown }
    // Anthropic pings right after message_start.
    if (body.type === 'message_start') body.message!.usage = { ...usageToMessages(usage), output_tokens: 1 }
    if (body.type === 'message_start') return `${head}\ndata: ${JSON.stringify(body)}\n\nevent: ping\ndata: {"type": "ping"}\n\n`
    else if (body.type === 'message_delta') body.usage = { output_tokens: usage.outputTokens }
    else return frame
    return `${head}\ndata: ${JSON.stringify(body)}\n\n`
  }).join('')
}

/** Compatible servers' habits: `usage: null` on every chunk, the real one on the finish chunk; keep-alive comments. */
function usageOnFinish(sse: string): string {
  const frames = sse.split(/(?<=\n\n)/)
  const bodies = frames.map(frame => frame.startsWith('data: {') ? JSON.parse(frame.slice(6)) as { choices: Array<{ finish_reason: unknown }>; usage?: unknown } : undefined)
  const usage = bodies.find(body => body?.usage && !body.choices.length)?.usage
  return frames.flatMap((frame, i) => {
    const body = bodies[i]
    if (!body) return [frame]
    if (body.usage && !body.choices.length) return []
    body.usage = body.choices.some(choice => choice.finish_reason) && usage ? usage : null
    return [`data: ${JSON.stringify(body)}\n\n`]
  }).join(': PROCESSING\n\n')
}

/**
 * `variant` asks for a vendor habit the encoders do not show: calls without arguments streaming no
 * argument text (one empty piece from Anthropic), a chat upstream's parallel calls interleaved and its
 * usage on the finish chunk, Anthropic's usage split over message_start and message_delta, Gemini's running usage on
 * every chunk.
 */
export function scriptOf(family: UpstreamFamily, answer: CanonicalResponse, cuts: number[], writes: Writes, variant = false, crossing = true): Script {
  const codec = familyCodecs[family]
  const encoder = codec.stream.createEncoder({ model: answer.model, sse: true, includeUsage: true })
  // Same format: the bytes pass as they are, and the vendor's whole answer would say `{}` too.
  const bare = !variant || !crossing ? undefined : family === 'beta' ? 'empty' : 'none'
  const encoded = () => [...answerEvents(answer, cuts, variant && family === 'compat', bare).map(event => encoder.push(event)), encoder.end()].join('')
  const text = family === 'alpha' ? geminiStream(answer, piece => split(piece, cuts), variant)
    : family === 'beta' && variant ? usageSplit(encoded(), answer.usage)
      : family === 'compat' && variant ? usageOnFinish(encoded()) : encoded()
  const bytes = Buffer.from(text)
  let chunks: Uint8Array[]
  if (writes.kind === 'bytes') {
    const at = [...new Set(writes.cuts.map(cut => cut % bytes.length))].sort((a, b) => a - b)
    chunks = [...at, bytes.length].map((end, i, all) => bytes.subarray(i ? all[i - 1]! : 0, end)).filter(chunk => chunk.length)
  } else {
    const size = writes.kind === 'events' ? 1 : writes.size
    const events = text.split(/(?<=\n\n)/)
    chunks = []
    for (let i = 0; i < events.length; i += size) chunks.push(Buffer.from(events.slice(i, i + size).join('')))
  }
  return { whole: JSON.stringify(family === 'alpha' ? geminiWhole(answer, piece => split(piece, cuts)) : codec.response.encode(answer)), writes: chunks }
}

const streamed = (family: UpstreamFamily, url: string, body: string) =>
  family === 'alpha' ? url.includes(':streamGenerateContent') : (JSON.parse(body) as { stream?: boolean }).stream === true

/** Serves whatever `script` is when a request comes; a stream is written one chunk per tick. */
function scripted(family: UpstreamFamily, current: () => Script) {
  return async (request: Request) => {
    const script = current()
    if (!streamed(family, request.url, await request.text())) return new Response(script.whole, { headers: { 'content-type': 'application/json' } })
    const writes = [...script.writes]
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = writes.shift()
        if (!next) return controller.close()
        await new Promise(resolve => setImmediate(resolve))
        controller.enqueue(next)
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
  }
}

export interface Rig {
  proxy: TestProxy
  /** What the next request to `family` is answered with. */
  serve(family: UpstreamFamily, script: Script): void
  /** Usage the proxy recorded (after-response), one entry per request in the order they ended. */
  recorded: Array<Usage | undefined>
  close(): Promise<void>
}

export async function startRig(): Promise<Rig> {
  const scripts: Partial<Record<UpstreamFamily, Script>> = {}
  const recorded: Array<Usage | undefined> = []
  const families = Object.keys(familyCodecs) as UpstreamFamily[]
  const mocks = await Promise.all(families.map(family => startMockUpstream(scripted(family, () => scripts[family]!))))
  const up = Object.fromEntries(families.map((family, i) => [family, mocks[i]!])) as Record<UpstreamFamily, MockUpstream>
  const recorder = defineProxyPlugin({ name: 'usage-recorder', setup(kernel) { kernel.hooks.hook('after-response', ({ usage }) => { recorded.push(usage && { ...usage }) }) } })
  const proxy = await startTestProxy({
    'api-keys': ['sk-fuzz'],
    'compat-provider': [{ name: 'fuzz-compat', 'base-url': `${up.compat.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'm-compat', alias: familyModel('compat') }] }],
    'beta-api-key': [{ 'api-key': 'up', 'base-url': up.beta.url, models: [{ name: 'm-beta', alias: familyModel('beta') }] }],
    'gamma-api-key': [{ 'api-key': 'up', 'base-url': `${up.gamma.url}/v1`, models: [{ name: 'm-gamma', alias: familyModel('gamma') }] }],
    'alpha-api-key': [{ 'api-key': 'up', 'base-url': up.alpha.url, models: [{ name: 'm-alpha', alias: familyModel('alpha') }] }],
  }, [recorder])
  return {
    proxy,
    recorded,
    serve(family, script) { scripts[family] = script },
    async close() {
      await proxy.close()
      await Promise.all(mocks.map(mock => mock.close()))
    },
  }
}
