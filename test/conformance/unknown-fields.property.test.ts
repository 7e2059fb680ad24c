import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { RequestValidationError } from '../../core/canonical/errors.ts'
import { at, enumAt, formats, loadFixtures, spots, translate, type Fixture, type Json, type Spot, type Translated } from './unknown-inserts.ts'

/**
 * Clients add fields, block types and enum values weekly. Across formats each must reach the upstream
 * (mapped, or inside a schema or tool arguments) or be named in `x-proxy-dropped`: never vanish unseen.
 * Recorded client bodies get an unknown key or value at a random place; every other format is checked.
 * FUZZ_RUNS raises the runs.
 */

const runs = Number(process.env.FUZZ_RUNS ?? 150)
const fixtures = loadFixtures()

/** Decoding may refuse what the client's vendor refuses (an unknown role): then nothing is lost unseen. */
function tryTranslate(body: Json, fixture: Fixture, upstream: (typeof formats)[number]): Translated | undefined {
  try {
    return translate(body, fixture.format, upstream)
  } catch (error) {
    if (error instanceof RequestValidationError) return undefined
    throw error
  }
}

const where = (spot: Spot) => spot.path.join('.') || '(top level)'
const named = (dropped: string[], word: string) => dropped.some(name => name.includes(word))
/** The key's own object (or one around it) named as dropped: `cache_control`, `thinking`, `tools.defer_loading`. */
/** The block, part or item holding it left out whole, named by its type (`block:image`, `item:x`). */
const namedWhole = (dropped: string[], spot: Spot) => spot.types.some(type => dropped.some(name => name.endsWith(`:${type}`)))
const namedAround = (dropped: string[], path: Array<string | number>) => {
  const steps = path.filter(step => typeof step === 'string')
  return dropped.some(name => steps.some((_, i) => steps.slice(i).some((__, j) => steps.slice(i, i + j + 1).join('.') === name)))
}

/** A fixture and one of its objects that `keep` accepts, by index (a counterexample prints short). */
const fixtureSpot = fc.tuple(fc.nat(fixtures.length - 1), fc.nat())
function chosen([f, s]: [number, number], keep: (spot: Spot) => boolean): { fixture: Fixture; spot: Spot } | undefined {
  const fixture = fixtures[f]!
  const list = spots(fixture.body).filter(keep)
  return list.length ? { fixture, spot: list[s % list.length]! } : undefined
}

describe('an unknown key reaches the upstream or is named', () => {
  it('outside schemas and tool arguments', () => {
    fc.assert(fc.property(fixtureSpot, fc.nat(999), (place, n) => {
      const pick = chosen(place, spot => !spot.inSchema && !spot.inData && !spot.inReplay)
      if (!pick) return
      const { fixture, spot } = pick
      const key = `zqk${n}`
      const body = structuredClone(fixture.body)
      at(body, spot.path)[key] = `zqv${n}`
      for (const upstream of formats.filter(format => format !== fixture.format)) {
        const out = tryTranslate(body, fixture, upstream)
        if (!out || out.text.includes(key)) continue
        expect(out.dropped, `${fixture.name} ${where(spot)}.${key} -> ${upstream}`).toSatisfy((dropped: string[]) => named(dropped, key) || namedAround(dropped, spot.path) || namedWhole(dropped, spot))
      }
    }), { numRuns: runs })
  })

  // Schemas go as the client wrote them; generateContent keeps its documented subset of keywords
  // (providers/alpha/codec/schema.ts), where a new property is structure and stays.
  it('inside tool and answer schemas and tool-call arguments: carried', () => {
    fc.assert(fc.property(fixtureSpot, fc.nat(999), (place, n) => {
      const pick = chosen(place, spot => spot.inSchema || spot.inData)
      if (!pick) return
      const { fixture, spot } = pick
      const key = `zqk${n}`
      const body = structuredClone(fixture.body)
      at(body, spot.path)[key] = spot.inSchema ? { type: 'string' } : `zqv${n}`
      for (const upstream of formats.filter(format => format !== fixture.format)) {
        if (upstream === 'generate' && spot.inSchema && spot.path.at(-1) !== 'properties') continue
        const out = tryTranslate(body, fixture, upstream)
        if (out) expect(out.text, `${fixture.name} ${where(spot)}.${key} -> ${upstream}`).toContain(key)
      }
    }), { numRuns: runs })
  })
})

describe('an unknown value of an enum field reaches the upstream or is named', () => {
  const hasEnum = (spot: Spot) => !spot.inSchema && !spot.inData && !spot.inReplay && Object.keys(spot.node).some(key => enumAt(spot, key))
  it('block and part types, roles, tool_choice, efforts, modes', () => {
    fc.assert(fc.property(fixtureSpot, fc.nat(999), fc.nat(), (place, n, which) => {
      const pick = chosen(place, hasEnum)
      if (!pick) return
      const { fixture, spot } = pick
      const keys = Object.keys(spot.node).filter(key => enumAt(spot, key))
      const key = keys[which % keys.length]!
      const value = `zqv${n}`
      const body = structuredClone(fixture.body)
      at(body, spot.path)[key] = value
      for (const upstream of formats.filter(format => format !== fixture.format)) {
        const out = tryTranslate(body, fixture, upstream)
        if (!out || out.text.includes(value)) continue
        expect(out.dropped, `${fixture.name} ${where(spot)}.${key}=${value} -> ${upstream}`).toSatisfy((dropped: string[]) => named(dropped, value) || (key !== 'type' && key !== 'role' && named(dropped, key)) || namedAround(dropped, [...spot.path, key]) || namedWhole(dropped, spot))
      }
    }), { numRuns: runs })
  })
})

/** A dropped name read as a path in the client's body (`prompt_cache_key`, `metadata.user_id`): its value, when it is one. */
function valueNamed(body: Json, name: string): unknown {
  return name.split('.').reduce<unknown>((node, key) => node && typeof node === 'object' && !Array.isArray(node) ? (node as Json)[key] : undefined, body)
}

// The reverse: what a crossing carried is not reported lost. A named field's own value (a cache key, a
// user id) must not be in the upstream body.
// Each body is checked as recorded and with the known fields below, which some formats carry and some cannot.
const knownFields: Record<string, Json> = {
  chat: { user: 'user-4711', prompt_cache_key: 'cache-4711', safety_identifier: 'safety-4711', stop: ['STOP-4711'], seed: 4711 },
  responses: { user: 'user-4711', prompt_cache_key: 'cache-4711', safety_identifier: 'safety-4711', store: true },
  messages: { metadata: { user_id: 'user-4711' }, stop_sequences: ['STOP-4711'], top_k: 40 },
  generate: { generationConfig: { stopSequences: ['STOP-4711'], seed: 4711, topK: 40 } },
}
const withKnown = (fixture: Fixture): Json => fixture.format === 'generate'
  ? { ...fixture.body, generationConfig: { ...(fixture.body.generationConfig as Json), ...(knownFields.generate!.generationConfig as Json) } }
  : { ...fixture.body, ...knownFields[fixture.format] }

describe('a field named as dropped is not carried', () => {
  const cases = fixtures.flatMap(fixture => [false, true].flatMap(known => formats.filter(format => format !== fixture.format).map(upstream => [fixture.name, known, upstream, fixture] as const)))
  it.each(cases)('%s (known fields added: %s) -> %s', (_, known, upstream, fixture) => {
    const body = known ? withKnown(fixture) : fixture.body
    const out = translate(body, fixture.format, upstream)
    for (const name of out.dropped) {
      const value = valueNamed(body, name)
      if (typeof value === 'string' && value.length >= 6) expect(out.text, name).not.toContain(JSON.stringify(value))
      if (value && typeof value === 'object') expect(out.text, name).not.toContain(JSON.stringify(value))
    }
  })
})
