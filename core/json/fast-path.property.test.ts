import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { codecs } from '../../test/conformance/codecs.ts'
import { ClientBody, JsonBody } from './index.ts'

/**
 * The fast path held to the plain one: for generated and recorded client bodies, first requests and next
 * turns (the caches warm, under one client key), same format and translated, the upstream bytes parse to
 * what the plain path writes (JSON.parse of the client's bytes, the codecs, JSON.stringify).
 */
const formatOf = (path: string) => path.includes('/messages') ? 'messages' : path.includes('/chat/') ? 'chat' : path.includes('/responses') ? 'responses' : 'generate'
const codecOf = (format: string) => codecs.find(codec => codec.format === format)!

/** Long strings that need escapes and hold non-ASCII: what the raw-string copies and the last-turn cache meet. */
const prose = (length: number, seed: number) => `line ${seed}: "quoted" \\ path\n\tcafé — ✓ 🙂 ${'const value = await request(path) // why\n'.repeat(Math.ceil(length / 40))}`.slice(0, length)
function filled(value: unknown, seed = { n: 1 }): unknown {
  if (typeof value === 'string') {
    const match = /^<(\d+) chars>$/.exec(value)
    return match ? prose(Math.max(Number(match[1]), 300), seed.n++) : value
  }
  if (Array.isArray(value)) return value.map(item => filled(item, seed))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, filled(v, seed)]))
  return value
}

/** The body with one more user turn, in its format's own shape. */
function nextTurn(format: string, body: Record<string, unknown>, text: string): Record<string, unknown> {
  if (format === 'generate') return { ...body, contents: [...(body.contents as unknown[] ?? []), { role: 'user', parts: [{ text }] }] }
  if (format === 'responses') return { ...body, input: [...(Array.isArray(body.input) ? body.input : [{ role: 'user', content: String(body.input ?? '') }]), { role: 'user', content: text }] }
  return { ...body, messages: [...(body.messages as unknown[] ?? []), { role: 'user', content: text }] }
}

/** What the plain path sends: the client's bytes parsed, decoded, encoded, stringified (same format: the body as parsed). */
function plain(bytes: Buffer, inbound: string, upstream: string): unknown {
  const body = JSON.parse(bytes.toString('utf8'))
  if (inbound === upstream) return body
  return JSON.parse(JSON.stringify(codecOf(upstream).request.encode(codecOf(inbound).request.decode(body))))
}

/** What the fast path sends: the body read from its bytes (by parts, through the caches of `key`), written by the handle. */
function fast(bytes: Buffer, inbound: string, upstream: string, key: string): unknown {
  const client = new ClientBody(bytes, key)
  const sent = inbound === upstream ? new JsonBody(client)
    : new JsonBody(codecOf(upstream).request.encode(codecOf(inbound).request.decode(client.object())), { scope: key, client })
  return JSON.parse(sent.bytes().toString('utf8'))
}

/** Tool-call ids a codec makes up (generateContent has none) numbered in order of appearance: random on either path. */
function sameIds(value: unknown): unknown {
  const ids = new Map<string, string>()
  return JSON.parse(JSON.stringify(value).replace(/\b(call|toolu)_[0-9a-f]{16,}\b/g, id => ids.get(id) ?? ids.set(id, `id-${ids.size}`).get(id)!))
}

let keys = 0
/** A first request, the same again, and two next turns under one fresh client key: each equal to the plain path. */
function holds(format: string, body: Record<string, unknown>, upstream: string, turnText: (turn: number) => string) {
  const key = `property-${keys++}`
  const bodies = [body, body, nextTurn(format, body, turnText(1)), nextTurn(format, nextTurn(format, body, turnText(1)), turnText(2))]
  for (const each of bodies) {
    const bytes = Buffer.from(JSON.stringify(each))
    expect(sameIds(fast(bytes, format, upstream, key))).toStrictEqual(sameIds(plain(bytes, format, upstream)))
  }
}

describe('recorded client bodies (test/fixtures/clients)', () => {
  const dir = new URL('../../test/fixtures/clients/', import.meta.url)
  const fixtures = readdirSync(dir).filter(name => name.endsWith('.json')).map(name => {
    const recorded = JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as { path: string; body: Record<string, unknown> }
    const format = formatOf(recorded.path)
    // generateContent names the model in its URL; its route puts it in the body, as here.
    const body = filled(recorded.body) as Record<string, unknown>
    return { name, format, body: format === 'generate' ? { ...body, model: 'm' } : body }
  })

  it.each(fixtures.flatMap(fixture => codecs.map(codec => [fixture.name, codec.format, fixture] as const)))('%s -> %s', (_, upstream, fixture) => {
    holds(fixture.format, fixture.body, upstream, turn => prose(400 + turn, turn))
  })
})

describe('generated bodies', () => {
  // Strings of every kind a client writes: short, long (copied from the client's bytes), escapes, non-ASCII, lone surrogates.
  const text = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'grapheme', minLength: 260, maxLength: 600 }),
    fc.string({ unit: 'binary', minLength: 260, maxLength: 400 }),
    fc.nat(40).map(n => prose(300 + n * 20, n)),
  )
  const message = fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { minLength: 1, maxLength: 3 })) })
  const chatBody = fc.record({
    model: fc.constant('m'),
    system: fc.option(text, { nil: undefined }),
    messages: fc.array(message, { minLength: 1, maxLength: 8 }),
    tools: fc.option(fc.array(fc.record({ name: fc.stringMatching(/^[a-z]{1,8}$/), description: text, input_schema: fc.constant({ type: 'object', properties: { path: { type: 'string' } } }) }), { maxLength: 4 }), { nil: undefined }),
    max_tokens: fc.nat(4096).map(n => n + 1),
  }, { requiredKeys: ['model', 'messages', 'max_tokens'] })

  it.each(codecs.map(codec => codec.format))('messages -> %s', (upstream) => {
    fc.assert(fc.property(chatBody, text, text, (body, one, two) => {
      // The messages format wants alternating turns starting with the user: the codecs may refuse others.
      const messages = body.messages.map((each, i) => ({ ...each, role: i % 2 ? 'assistant' : 'user' }))
      holds('messages', { ...body, messages: messages.length % 2 ? messages : messages.slice(0, -1) }, upstream, turn => turn === 1 ? one : two)
    }), { numRuns: 40 })
  })
})
