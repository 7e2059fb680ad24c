import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ClientBody, JsonBody } from './index.ts'

/**
 * The JSON layer against `JSON.parse` on bodies written to trip a byte-level reader: escapes of every kind
 * (lone surrogates, `\u0000`, `\/`), `__proto__` and repeated keys at every level, numbers JSON.parse
 * rounds, whitespace between tokens, long strings (16 KB and more, parsed on their own), bodies over 32 KB
 * (checked and parsed by parts), and a byte dropped, doubled or changed somewhere. Each body is read four
 * times under one client key (a first request, the same again, a changed copy, another change), so the
 * last-turn cache answers some of them. A body is refused exactly when JSON.parse refuses it, with its
 * message; otherwise the object, its key order, `field()`, the bytes sent as the client wrote them and the
 * bytes written anew all mean what the plain path's do. `FUZZ_RUNS=5000` runs it longer.
 */
const piece = fc.constantFrom('a', 'é', '✓', '🙂', '\\"', '\\\\', '\\n', '\\t', '\\u0000', '\\u001f', '\\ud800', '\\udc00', '\\ud83d\\ude42', '\\/', '\\u00e9', ' ', 'x'.repeat(50), '\u2028')
const stringToken = (maxPieces: number) => fc.array(piece, { maxLength: maxPieces }).map(pieces => `"${pieces.join('')}"`)
const longString = fc.integer({ min: 330, max: 420 }).chain(n => fc.array(piece, { minLength: n, maxLength: n })).map(pieces => `"${pieces.join('').repeat(2)}"`)
const scalar = fc.oneof(
  stringToken(8),
  fc.constantFrom('0', '-0', '1', '-1', '1.5', '1e400', '-1e-400', '12345678901234567890', '0.1e+2', '3E2', '1.0', 'true', 'false', 'null'),
)
const key = fc.constantFrom('"k"', '"role"', '"content"', '"__proto__"', '"a\\u0062"', '"text"', '"x"', '"constructor"', '"0"', '"1"', '"model"')
const gap = fc.constantFrom('', ' ', '\n', ' \t ')
const { tree } = fc.letrec<{ tree: string; list: string; object: string }>(tie => ({
  tree: fc.oneof({ maxDepth: 5, depthSize: 'small' }, scalar, tie('list'), tie('object'), longString),
  list: fc.array(tie('tree'), { maxLength: 6 }).chain(items => gap.map(g => `[${g}${items.join(`${g},`)}]`)),
  object: fc.array(fc.tuple(key, gap, tie('tree')), { maxLength: 5 }).map(fields => `{${fields.map(([k, g, v]) => `${k}${g}:${v}`).join(',')}}`),
}))
/** A top-level object: routing's keys (some written twice), a list long enough to be read by parts. */
const body = fc.record({
  fields: fc.array(fc.tuple(fc.constantFrom('"model"', '"messages"', '"tools"', '"system"', '"__proto__"', '"stream"', '"x"'), tree), { minLength: 1, maxLength: 6 }),
  history: fc.array(tree, { maxLength: 60 }),
  lead: gap,
}).map(({ fields, history, lead }) => `${lead}{${[...fields.map(([k, v]) => `${k}:${v}`), `"messages":[${history.join(',')}]`].join(',')}}${lead}`)
const edit = fc.tuple(fc.nat(), fc.constantFrom('drop', 'comma', 'control', 'bracket', 'none', 'none'))
const edited = (text: string, [at, how]: [number, string]) => {
  const i = at % (text.length + 1)
  return how === 'drop' ? text.slice(0, i) + text.slice(i + 1) : how === 'comma' ? `${text.slice(0, i)},${text.slice(i)}`
    : how === 'control' ? `${text.slice(0, i)}\u0001${text.slice(i)}` : how === 'bracket' ? `${text.slice(0, i)}]${text.slice(i)}` : text
}

type Outcome = { refused: string } | { object: Record<string, unknown>; keys: string; model: unknown; asSent: unknown; written: unknown }

function plain(bytes: Buffer): Outcome {
  let value: unknown
  try {
    value = JSON.parse(bytes.toString('utf8'))
  } catch (error) {
    return { refused: (error as Error).message }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { refused: 'must be a JSON object' }
  const object = value as Record<string, unknown>
  return { object, keys: Object.keys(object).join(), model: object.model, asSent: object, written: JSON.parse(JSON.stringify({ ...object, extra: 1 })) }
}

function fast(bytes: Buffer, scope: string): Outcome {
  let client: ClientBody
  try {
    client = new ClientBody(bytes, scope)
  } catch (error) {
    return { refused: (error as Error).message }
  }
  const model = client.field('model')
  const object = client.object()
  const asSent = JSON.parse(new JsonBody(new ClientBody(bytes, scope)).bytes().toString('utf8'))
  const written = JSON.parse(new JsonBody({ ...object, extra: 1 }, { scope, client }).bytes().toString('utf8'))
  return { object, keys: Object.keys(object).join(), model, asSent, written }
}

let scopes = 0
describe('adversarial bodies: the JSON layer refuses and reads exactly as JSON.parse does', () => {
  it('first request, the same again, and two edited copies under one client key', () => {
    fc.assert(fc.property(body, edit, edit, (text, one, two) => {
      const scope = `adversarial-${scopes++}`
      for (const each of [text, text, edited(text, one), edited(edited(text, one), two)]) {
        const bytes = Buffer.from(each, 'utf8')
        const expected = plain(bytes)
        const actual = fast(bytes, scope)
        if ('refused' in expected) {
          expect(actual).toHaveProperty('refused')
          // The proxy's 400 carries JSON.parse's own message (a non-object body has the proxy's words).
          if (!expected.refused.startsWith('must be')) expect((actual as { refused: string }).refused).toContain(expected.refused)
          continue
        }
        expect(actual).not.toHaveProperty('refused')
        expect(isDeepStrictEqual(actual, expected)).toBe(true)
      }
    }), { numRuns: Number(process.env.FUZZ_RUNS ?? 150) })
  }, 600_000)
})
