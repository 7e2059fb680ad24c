import { isUtf8 } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ClientBody, JsonBody, joined, sliced } from './index.ts'
import { jsonBytes } from './json-bytes.ts'
import { TurnCache } from './turn-cache.ts'
import { setOwn } from './plain-json.ts'

/**
 * The write side against `JSON.stringify`, on values it treats specially: toJSON (at every level, returning
 * undefined, its key, an object), undefined, functions and symbols, holes, -0, NaN, Infinity, BigInt, Dates,
 * class instances, boxed primitives, Maps, Object.create(null), getters, `__proto__` and integer-like keys,
 * lone surrogates, the client's long strings (the very string, an equal copy, one a character off) and
 * strings a codec joined or cut from them, under one client key for three turns (the same parts, parts
 * changed subtly: a key order, 1 / "1" / -0, an undefined added, a toJSON object or list, the first turn's
 * value changed in place after it was written). The bytes mean what JSON.stringify's mean (the same bytes where no
 * client spelling was copied) and throwing matches. Then `JsonBody.set` on client bytes against JSON.parse,
 * the assignments and JSON.stringify. `FUZZ_RUNS=2000` runs it longer.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 120)

// The client's long strings, spelled with escapes, non-ASCII and lone surrogates (json-bytes copies these spellings).
const base64 = 'QUJD/'.repeat(4000)
const clientText = JSON.stringify({
  prose: `caf\u00e9 \u2014 "q" \\ \ud83d\ude42 ${'line of text\n'.repeat(1600)}`,
  b64: base64,
  url: `data:image/png;base64,${base64}`,
  lone: `\ud800 x \udc00 ${'y'.repeat(20_000)}`,
  odd: `\\\\\u00c3\u0083${'z'.repeat(20_000)}`,
}).replaceAll('/', '\\/').replaceAll('\u00e9', '\\u00e9')
const client = new ClientBody(Buffer.from(clientText))
const longs = client.object() as Record<string, string>
const near = (text: string, at: number) => { const i = at % text.length; return text.slice(0, i) + (text[i] === 'a' ? 'b' : 'a') + text.slice(i + 1) }
// Made afresh at each use, as a codec makes them (the derived ring notes each).
const longString = fc.oneof(
  fc.constantFrom(...Object.keys(longs)).map(key => () => longs[key]!),
  fc.constantFrom(...Object.keys(longs)).map(key => () => ` ${longs[key]}`.slice(1)),
  fc.tuple(fc.constantFrom(...Object.keys(longs)), fc.nat()).map(([key, at]) => () => near(longs[key]!, at)),
  fc.constantFrom('data:image/png;base64,', 'data:x;base64,', '\u00e9', '\\').map(head => () => joined(head, longs.b64!)),
  fc.constant(() => joined('data:image/png;base64,', sliced(longs.url!, 22))),
  fc.tuple(fc.constantFrom(...Object.keys(longs)), fc.nat(30)).map(([key, from]) => () => sliced(longs[key]!, from)),
)

type Make = () => unknown
const keyName = fc.constantFrom('a', 'b', 'role', 'content', '__proto__', '1', '01', '-1', '4294967294', '4294967295', '1.5', 'toJSON', 'constructor', '', '\ud800', '\u00e9', 'messages')
const scalar: fc.Arbitrary<Make> = fc.oneof(
  fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom('\ud800', '\udc00x', '\u2028', '"\\/', '\u0000\u001f')).map(s => () => s),
  fc.constantFrom(0, -0, 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21, 5e-324, -1e-7, 2 ** 53 + 2).map(n => () => n),
  fc.constantFrom(true, false, null, undefined).map(v => () => v),
  fc.constantFrom<Make>(() => () => 1, () => Symbol('s'), () => new Date(0), () => new Date(Number.NaN), () => new Number(-0), () => new String('s'), () => new Boolean(false), () => new Map([[1, 2]]), () => /re/g, () => Object.assign(() => 1, { toJSON: (key: string) => `fn ${key}` })),
)
const rare: fc.Arbitrary<Make> = fc.constantFrom<Make>(() => 1n, () => ({ big: [2n] }), () => Object(3n))
class Thing {
  a: unknown
  constructor(a: unknown) { this.a = a }
  method() { return 1 }
}
const toJSONs = ['key', 'undefined', 'child', 'nested'] as const

const { node } = fc.letrec<{ node: Make; object: Make; list: Make }>(tie => ({
  node: fc.oneof({ maxDepth: 4, depthSize: 'small', withCrossShrink: true }, { arbitrary: scalar, weight: 6 }, { arbitrary: longString, weight: 2 }, { arbitrary: tie('object'), weight: 4 }, { arbitrary: tie('list'), weight: 3 }, { arbitrary: rare, weight: 1 }),
  object: fc.tuple(fc.array(fc.tuple(keyName, tie('node')), { maxLength: 5 }), fc.constantFrom('plain', 'plain', 'null', 'class', 'getter', 'hidden', ...toJSONs), tie('node')).map(([fields, kind, child]) => () => {
    const out: Record<string, unknown> = kind === 'null' ? Object.create(null) : kind === 'class' ? new Thing(child()) : {}
    for (const [key, make] of fields) {
      if (kind === 'getter') Object.defineProperty(out, key, { get: make, enumerable: true, configurable: true })
      else setOwn(out, key, make())
    }
    // Keys JSON.stringify does not see: a symbol, a key not enumerable.
    if (kind === 'hidden') Object.defineProperties(out, { [Symbol('k')]: { value: 1, enumerable: true }, unseen: { value: 2, enumerable: false } })
    else if (kind === 'key') out.toJSON = (key: string) => `key ${key}`
    else if (kind === 'undefined') out.toJSON = () => undefined
    else if (kind === 'child') out.toJSON = () => child()
    else if (kind === 'nested') out.toJSON = () => ({ inner: { toJSON: (key: string) => [key] }, child: child() })
    return out
  }),
  list: fc.tuple(fc.array(tie('node'), { maxLength: 5 }), fc.constantFrom('plain', 'plain', 'holes', 'extra', 'sub', 'toJSON')).map(([items, kind]) => () => {
    const out = kind === 'sub' ? new (class List extends Array {})() : [] as unknown[]
    items.forEach((make, i) => { if (kind !== 'holes' || i % 2) out[i] = make() })
    if (kind === 'holes') out.length = items.length + 1
    if (kind === 'extra') Object.assign(out, { name: 'x' })
    if (kind === 'toJSON') Object.assign(out, { toJSON: (key: string) => ({ key, length: out.length }) })
    return out
  }),
}))

/** A request-like body: top-level keys, lists whose elements are parts of 256 bytes or more (the turn cache's places). */
const body = fc.record({
  fields: fc.array(fc.tuple(keyName, node), { maxLength: 4 }),
  messages: fc.array(fc.tuple(node, fc.boolean()), { minLength: 1, maxLength: 6 }),
  system: node,
  cycle: fc.constantFrom(false, false, false, false, false, false, false, true),
})
const make = (recipe: { fields: Array<[string, Make]>; messages: Array<[Make, boolean]>; system: Make; cycle: boolean }) => {
  const out: Record<string, unknown> = { model: 'm' }
  for (const [key, each] of recipe.fields) setOwn(out, key, each())
  out.system = { text: recipe.system(), pad: 'p'.repeat(300) }
  out.messages = recipe.messages.map(([content, padded]) => padded ? { role: 'user', n: 1, content: content(), list: [1, [2]], pad: 'q'.repeat(300) } : content())
  // A cycle through a part, met below the levels written by parts (JSON.stringify names it from the top).
  if (recipe.cycle) (out.system as Record<string, unknown>).back = { to: [out] }
  return out
}

/** A subtle change to a message of the next turn (or none). */
const change = fc.tuple(fc.nat(), fc.constantFrom('none', 'reorder', 'one', 'string', 'minus0', 'float', 'undefined', 'nested', 'toJSON', 'listToJSON', 'near', 'inPlace'))
function changed(value: Record<string, any>, [at, how]: [number, string]): Record<string, any> {
  const messages = value.messages as any[]
  const i = at % messages.length
  const m = messages[i]
  if (!m || typeof m !== 'object' || Array.isArray(m) || Object.getPrototypeOf(m) !== Object.prototype) return value
  const next = (part: unknown) => { const copy = [...messages]; copy[i] = part; return { ...value, messages: copy } }
  if (how === 'reorder') return next(Object.fromEntries(Object.entries(m).reverse()))
  if (how === 'one' || how === 'string' || how === 'minus0' || how === 'float') return next({ ...m, n: { one: 1, string: '1', minus0: -0, float: 1.0000001 }[how] })
  if (how === 'undefined') return next({ ...m, extra: undefined })
  if (how === 'nested') return next({ ...m, n: { u: undefined, v: [undefined] } })
  if (how === 'toJSON') return next({ ...m, toJSON: (key: string) => ({ ...m, key }) })
  if (how === 'listToJSON') return next({ ...m, list: Object.assign([1, [2]], { toJSON: (key: string) => key }) })
  if (how === 'near' && typeof m.pad === 'string') return next({ ...m, pad: near(m.pad, at) })
  if (how === 'inPlace') m.n = 2 // the value a caller handed in, changed after its bytes were written
  return value
}

type Written = { threw: string } | { text: string }
const outcome = (write: () => Buffer | string): Written => {
  try {
    const out = write()
    if (typeof out === 'string') return { text: out }
    expect(isUtf8(out)).toBe(true)
    return { text: out.toString('utf8') }
  } catch (error) {
    return { threw: `${(error as Error).constructor.name}: ${(error as Error).message}` }
  }
}
/** Fast against plain: the same error; else the same JSON (the same bytes where `exact`: no client spelling could be copied). */
function agrees(fast: Written, plain: Written, exact: boolean): void {
  if ('threw' in plain) return void expect(fast).toEqual(plain)
  expect(fast).not.toHaveProperty('threw')
  const text = (fast as { text: string }).text
  if (exact || !plain.text) expect(text).toBe(plain.text)
  else expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(JSON.parse(plain.text)))
}
const stringified = (value: unknown) => outcome(() => JSON.stringify(value) ?? '')

let scopes = 0
describe('adversarial values: jsonBytes and JsonBody write what JSON.stringify writes', () => {
  it('three turns under one client key, with and without the client\'s long strings', () => {
    const cache = new TurnCache()
    fc.assert(fc.property(body, change, (recipe, how) => {
      const scope = `write-${scopes++}`
      // Without the client's strings nothing is copied from its bytes: the very bytes of JSON.stringify.
      for (const [strings, exact] of [[undefined, true], [client.rawStrings, false]] as const) {
        const first = make(recipe)
        // Each turn made once the one before is written (`inPlace` changes the first turn's value after).
        for (const turn of [() => first, () => changed(first, how), () => make(recipe)]) {
          const value = turn()
          agrees(outcome(() => jsonBytes(value, strings, cache, `${scope}-${exact}`)), stringified(value), exact)
        }
      }
    }), { numRuns: runs })
  }, 600_000)

  it('JsonBody: bytes after edit, set and replace follow the value; a value changed after bytes() is not what the next turn copies', () => {
    fc.assert(fc.property(body, node, keyName, (recipe, extra, key) => {
      const writing = { scope: `write-body-${scopes++}`, client }
      const value = make(recipe)
      const json = new JsonBody(value, writing)
      agrees(outcome(() => json.bytes()), stringified(value), false)
      json.edit(draft => { setOwn(draft, 'extra', extra()) })
      agrees(outcome(() => json.bytes()), stringified(json.read()), false)
      json.set(key, extra())
      agrees(outcome(() => json.bytes()), stringified(json.read()), false)
      // The first body's value changed in place after it was written: a new body of it writes the change.
      const messages = value.messages as any[]
      if (messages[0] && typeof messages[0] === 'object') setOwn(messages[0], 'changed', [1, 2])
      agrees(outcome(() => new JsonBody(value, writing).bytes()), stringified(value), false)
      agrees(outcome(() => json.replace(make(recipe)).bytes()), stringified(json.read()), false)
    }), { numRuns: Math.ceil(runs / 2) })
  }, 600_000)
})

describe('JsonBody.set on client bytes means JSON.parse, the assignments, JSON.stringify', () => {
  const gap = fc.constantFrom('', ' ', '\n\t ')
  const fieldKey = fc.constantFrom('"model"', '"stream"', '"a"', '"a\\u0062"', '"1"', '"__proto__"', '"stream_options"')
  const fieldValue = fc.constantFrom('1', '"s"', '[]', '{}', '{"stream":true}', '{"a":{"ab":1}}', 'null')
  const text = fc.tuple(gap, fc.array(fc.tuple(gap, fieldKey, fieldValue), { maxLength: 4 }), gap)
    .map(([lead, fields, tail]) => `${lead}{${fields.map(([g, k, v]) => `${g}${k}${g}:${v}`).join(',')}${tail}}${lead}`)
  const sets = fc.array(fc.tuple(fc.constantFrom('stream', 'stream_options', 'a', 'ab', '1', '__proto__', 'model', 'new'), node), { minLength: 1, maxLength: 3 })

  it('keys missing, present, present twice or only nested; values JSON leaves out or calls toJSON on; a value changed after set', () => {
    fc.assert(fc.property(text, sets, fc.boolean(), (raw, fields, late) => {
      const values = fields.map(([, make]) => make())
      const plain = JSON.parse(raw)
      const json = new JsonBody(new ClientBody(Buffer.from(raw)))
      fields.forEach(([key], i) => {
        setOwn(plain, key, values[i])
        json.set(key, values[i])
      })
      const last = values.at(-1)
      if (late && last && typeof last === 'object' && !Object.isFrozen(last)) setOwn(last as Record<string, unknown>, 'late', 1)
      const expected = stringified(plain)
      agrees(outcome(() => json.bytes()), expected, false)
      agrees(outcome(() => JSON.stringify(json.read())), expected, true)
    }), { numRuns: runs * 2 })
  })
})
