import fc from 'fast-check'
import type { CanonicalResponse, Citation, FinishReason, Part, Usage } from '../../../core/canonical/types.ts'

/** Upstream families and the wire format each speaks. */
export const upstreamFormats = { compat: 'chat', beta: 'messages', gamma: 'responses', alpha: 'generate' } as const
export type UpstreamFamily = keyof typeof upstreamFormats

/** Text of the kinds models write: unicode (astral too), characters JSON escapes (\u0001 too), empty, sometimes long. */
const pieces = ['', 'a', 'Hello', ' ', '\n', '"', '\\', '\u0001', '\u001f', '\u00e9', '\u4e2d\u6587', '\u{1F600}', '\u{1F469}\u200d\u{1F4BB}', '\t', '</s>', '\u2028', '{', '}']
export const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map(list => list.join('')) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...pieces.filter(Boolean)), fc.integer({ min: 200, max: 3000 })).map(([piece, n]) => piece.repeat(n)) },
)
const nonEmptyText = anyText.filter(text => text.length > 0)

/** JSON values of any shape, with keys and strings that need escapes. */
const jsonKey = fc.oneof(fc.constantFrom('q', 'city', 'a"b', 'e\u0301', '\u{1F600}', 'x\\y', 'line\nbreak'), fc.string({ maxLength: 6 }))
const jsonValue: fc.Arbitrary<unknown> = fc.letrec(tie => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter(n => !Object.is(n, -0)),
    anyText, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(jsonKey, tie('value'), { maxKeys: 3 })),
})).value
/** Tool arguments: always an object (what every format's function call takes), `{}` often. */
const toolArguments = fc.oneof(fc.constant('{}'), fc.dictionary(jsonKey, jsonValue, { minKeys: 1, maxKeys: 4 }).map(value => JSON.stringify(value)))
const toolName = fc.constantFrom('get_weather', 'read_file', 'run', 'a_b-c', 'Search2')

const citation = fc.record({ url: fc.constantFrom('https://a.example/', 'https://b.example/x?y=1'), title: fc.constantFrom('A', 'B page') })

/** One output part as the upstream family can say it; `n` makes ids unique. */
function partOf(family: UpstreamFamily, n: number): fc.Arbitrary<Part> {
  const format = upstreamFormats[family]
  const signature = fc.string({ minLength: 8, maxLength: 40, unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123456789+/'.split('')) })
  const text = fc.record({ text: family === 'alpha' ? nonEmptyText : anyText }).map(({ text }): Part => ({ type: 'text', text }))
  // Signed reasoning may show no text at all (OpenAI's encrypted-only items, a bare Gemini signature).
  const thinking = fc.record({ text: family === 'compat' ? nonEmptyText : fc.oneof(nonEmptyText, fc.constant('')), signature }).map(({ text, signature }): Part =>
    family === 'compat' ? { type: 'thinking', text } : { type: 'thinking', text, signature, origin: format })
  const call = fc.record({ name: toolName, args: toolArguments }).map(({ name, args }): Part => ({ type: 'tool_call', id: `call_${n}x${name.length}`, name, arguments: args }))
  const options: Array<fc.Arbitrary<Part>> = [text, text, thinking, call, call]
  if (family === 'beta') options.push(signature.map((data): Part => ({ type: 'thinking', text: '', signature: data, redacted: true, origin: format })))
  if (family === 'compat' || family === 'gamma') options.push(nonEmptyText.map((text): Part => ({ type: 'text', text, refusal: true })))
  options.push(fc.tuple(nonEmptyText, citation).map(([text, cited]): Part => ({ type: 'text', text, citations: [{ ...cited, origin: format } as Citation] })))
  if (family !== 'compat') options.push(fc.constantFrom('weather', 'news').map((query): Part => ({ type: 'web_search', id: `srch_${n}`, query, sources: [{ url: 'https://a.example/', title: 'A' }], origin: format })))
  return fc.oneof(...options)
}

const usage: fc.Arbitrary<Usage> = fc.record({
  inputTokens: fc.nat(100_000), outputTokens: fc.nat(20_000),
  cachedInputTokens: fc.option(fc.nat(5000), { nil: undefined }),
  cacheCreationInputTokens: fc.option(fc.nat(5000), { nil: undefined }),
  reasoningTokens: fc.option(fc.nat(5000), { nil: undefined }),
}).map(raw => {
  const out: Usage = { inputTokens: raw.inputTokens + (raw.cachedInputTokens ?? 0) + (raw.cacheCreationInputTokens ?? 0), outputTokens: raw.outputTokens + (raw.reasoningTokens ?? 0) }
  if (raw.cachedInputTokens !== undefined) out.cachedInputTokens = raw.cachedInputTokens
  if (raw.cacheCreationInputTokens !== undefined) out.cacheCreationInputTokens = raw.cacheCreationInputTokens
  if (raw.reasoningTokens !== undefined) out.reasoningTokens = raw.reasoningTokens
  return out
})

/** Whether the part can come in that order: vendors put reasoning before the answer. */
function ordered(parts: Part[]): Part[] {
  const thinking = parts.filter(part => part.type === 'thinking')
  return [...thinking, ...parts.filter(part => part.type !== 'thinking')]
}

/** A canonical answer an upstream of `family` could give. */
export function answerOf(family: UpstreamFamily): fc.Arbitrary<CanonicalResponse> {
  return fc.record({
    parts: fc.array(fc.nat(1000), { minLength: 1, maxLength: 5 }).chain(ns => fc.tuple(...ns.map((_, i) => partOf(family, i)))),
    finishReason: fc.constantFrom<FinishReason>('stop', 'length', 'tool_calls', 'content_filter'),
    usage,
    stopSequence: fc.option(fc.constantFrom('###', '\nUser:', 'é'), { nil: undefined }),
    cut: fc.option(fc.nat(), { nil: undefined }),
  }).map(({ parts, finishReason, usage, stopSequence, cut }) => {
    let list = ordered(parts)
    // A chat message holds a refusal or an answer (content and refusal are separate fields, in no order).
    if (family === 'compat' && list.some(part => part.type === 'text' && part.refusal)) list = list.filter(part => part.type === 'thinking' || (part.type === 'text' && part.refusal))
    const calls = list.some(part => part.type === 'tool_call')
    // A vendor says tool use only when it called a tool, and never stops "normally" right after asking for one.
    const reason: FinishReason = calls ? (finishReason === 'stop' ? 'tool_calls' : finishReason) : finishReason === 'tool_calls' ? 'stop' : finishReason
    // Out of tokens inside the last call's arguments: they end cut (Gemini sends calls whole).
    const last = list.at(-1)
    if (reason === 'length' && cut !== undefined && last?.type === 'tool_call' && family !== 'alpha') {
      const points = [...last.arguments]
      list = [...list.slice(0, -1), { ...last, arguments: points.slice(0, cut % points.length).join('') }]
    }
    // Only messages names the stop sequence that ended the answer.
    const stopped = family === 'beta' && reason === 'stop' && stopSequence ? { stopSequence } : {}
    return { id: 'resp_fuzz', model: 'fuzz-model', parts: list, finishReason: reason, usage, ...stopped }
  })
}
