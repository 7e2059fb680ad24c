import { readdirSync, readFileSync } from 'node:fs'
import type { WireFormat } from '../../core/canonical/codec.ts'
import { droppedFields } from '../../core/canonical/dropped.ts'
import { fitReplay } from '../../core/canonical/replay-fit.ts'
import { fitRequest } from '../../core/canonical/request-rules.ts'
import { codecs } from './codecs.ts'
import { richBodies } from './unknown-bodies.ts'

/**
 * What the adversarial unknown-field test inserts into a client body, and the translation it checks: the
 * pipeline's own steps (core/pipeline/upstream-body.ts) from a client body to the upstream body and the
 * `x-proxy-dropped` names.
 */

export type Json = Record<string, unknown>
export interface Fixture { name: string; format: WireFormat; body: Json }
/** An object in a body: where it is (keys and indexes) and whether it is inside a JSON schema or tool-call data. */
export interface Spot { path: Array<string | number>; node: Json; inSchema: boolean; inData: boolean; inReplay: boolean; types: string[] }

const formatOf = (path: string): WireFormat => path.includes('/messages') ? 'messages' : path.includes('/chat/') ? 'chat' : path.includes('/responses') ? 'responses' : 'generate'
const codecOf = (format: WireFormat) => codecs.find(codec => codec.format === format)!

/** Keys whose value is a JSON schema, passed on as-is by every format (generateContent's reduction aside). */
const schemaKeys = new Set(['parameters', 'input_schema', 'parametersJsonSchema', 'parameters_json_schema', 'schema', 'responseJsonSchema', 'responseSchema'])
/** Keys whose value is free-form data: tool-call arguments and a generateContent tool response. */
const dataKeys = new Set(['input', 'args', 'response'])
/** What describes an answer replayed (a reasoning item's summary parts): no request of the client's own. */
const replayKeys = new Set(['summary'])
/**
 * Keys whose string value is an enum of the format: a value of a newer API version goes there. Not
 * `status` (of a replayed answer's item: it describes the past turn) nor a system instruction's `role`
 * (generateContent reads none).
 */
export const enumKeys = new Set(['type', 'role', 'tool_choice', 'reasoning_effort', 'effort', 'verbosity', 'mode', 'thinkingLevel', 'detail', 'summary', 'display', 'responseMimeType'])
export const enumAt = (spot: Spot, key: string) => enumKeys.has(key) && typeof spot.node[key] === 'string' && !(key === 'role' && spot.path.at(-1) === 'systemInstruction')

function filled(value: unknown): unknown {
  if (typeof value === 'string') return /^<(\d+) chars>$/.test(value) ? 'prose' : value
  if (Array.isArray(value)) return value.map(filled)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, filled(v)]))
  return value
}

export function loadFixtures(): Fixture[] {
  const dir = new URL('../fixtures/clients/', import.meta.url)
  return [...readdirSync(dir).filter(name => name.endsWith('.json')).sort().map(name => {
    const recorded = JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as { path: string; body: Json }
    const format = formatOf(recorded.path)
    const body = filled(recorded.body) as Json
    return { name, format, body: format === 'generate' ? { ...body, model: 'm' } : body }
  }), ...richBodies]
}

/** Every object in the body (the body itself included), in document order. */
export function spots(body: Json): Spot[] {
  const out: Spot[] = []
  const walk = (value: unknown, path: Array<string | number>, inSchema: boolean, inData: boolean, inReplay = false, types: string[] = []) => {
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, [...path, i], inSchema, inData, inReplay, types))
    if (!value || typeof value !== 'object') return
    const type = (value as Json).type
    const typed = typeof type === 'string' ? [...types, type] : types
    out.push({ path, node: value as Json, inSchema, inData, inReplay, types: typed })
    for (const [key, sub] of Object.entries(value)) {
      const parent = path.at(-1)
      // `input` is the responses body's conversation, a messages tool_use's arguments elsewhere.
      const data = inData || (dataKeys.has(key) && !(key === 'input' && path.length === 0))
      // `schema` is a schema inside a response format; a property named like a schema key is not one.
      const replay = inReplay || (replayKeys.has(key) && (value as Json).type === 'reasoning')
      walk(sub, [...path, key], inSchema || (schemaKeys.has(key) && parent !== 'properties' && !data), data, replay, typed)
    }
  }
  walk(body, [], false, false)
  return out
}

export const at = (body: Json, path: Array<string | number>): Json => path.reduce<unknown>((node, key) => (node as Json)[key as string], body) as Json

export interface Translated { upstream: Json; text: string; dropped: string[] }

/** The pipeline's translating path: decode, fit to the upstream's rules, encode, and the dropped names. */
export function translate(body: Json, client: WireFormat, upstream: WireFormat): Translated {
  const canonical = codecOf(client).request.decode(structuredClone(body))
  const replay = fitReplay({ ...canonical, model: 'm' }, client, upstream)
  const fitted = fitRequest(replay.request, upstream)
  const encoded = codecOf(upstream).request.encode(fitted.request)
  const dropped = droppedFields(canonical, client, upstream, fitted.adapted, 'm')
  if (replay.dropped) dropped.push(replay.dropped)
  return { upstream: encoded, text: JSON.stringify(encoded), dropped }
}

export const formats: WireFormat[] = ['chat', 'responses', 'messages', 'generate']
