import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { turnCache } from '../../core/json/turn-cache.ts'
import { startMockUpstream, tolerantMock, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'
import { deltaMock } from '../../playground/mock-upstream/delta.ts'
import { loadFixtures, type ClientFixture } from '../clients/lab/fixtures.ts'
import { formatOfPath, offFormat } from './error-formats.ts'
import { bytewise, random, structural, type Mutation } from './mutations.ts'

/**
 * The recorded client bodies (test/fixtures/clients), mutated structurally and byte-wise (mutations.ts), sent
 * to their endpoints toward every upstream family, each as recorded and grown past the size read by parts.
 * Every answer is a 2xx or a 4xx in the endpoint's format, within 10 s, with no upstream key in it or in a
 * log line; the recorded body sent again with the same client key afterwards gets the answer and upstream
 * body it got before (no cache corrupted), as does each mutated body sent twice (its parts then come from
 * the cache); a same-format body goes upstream meaning what the client sent; and the bodies read by parts
 * give the same statuses, answers and upstream bodies with the JSON layer's cache on and off. Found so far:
 * x-proxy-dropped overflowing clients' header limit, gzip bodies read undecoded, null function declarations.
 */

const families = { compat: 'via-compat', beta: 'via-beta', gamma: 'via-gamma', alpha: 'via-alpha', delta: 'via-delta' } as const
type Family = keyof typeof families
const upKey = (family: Family) => `up-secret-${family}-7f3a9c`
/** Mutations per fixture, family and size: 1 keeps the file near 15 s; MUTATION_PROBE_COUNT=8 and other seeds search further. */
const mutationsPer = Number(process.env.MUTATION_PROBE_COUNT ?? 1)
const firstSeed = Number(process.env.MUTATION_PROBE_SEED ?? 0)
const fixtures = loadFixtures()
const keys = fixtures.flatMap((_, i) => Object.keys(families).flatMap(family => ['on', 'off'].flatMap(run => [0, 1].map(large => `sk-probe-${run}-${i}-${family}-${large}`))))

let upstreams: Record<Family, MockUpstream>
let proxy: TestProxy
const logged: string[] = []
const record = (...args: unknown[]) => { logged.push(args.map(arg => arg instanceof Error ? `${arg.message} ${arg.stack}` : typeof arg === 'string' ? arg : JSON.stringify(arg)).join(' ')) }
const logger = { info: record, warn: record, debug: record, log: record, success: record, error: record, withTag: () => logger } as never

beforeAll(async () => {
  const [compat, beta, gamma, alpha, delta] = await Promise.all([openaiMock, messagesMock, responsesMock, generateMock, deltaMock].map(handler => startMockUpstream(tolerantMock(handler))))
  upstreams = { compat: compat!, beta: beta!, gamma: gamma!, alpha: alpha!, delta: delta! }
  proxy = await startTestProxy({
    'api-keys': keys,
    timeouts: { 'first-byte-seconds': 5, 'stream-idle-seconds': 5 },
    'compat-provider': [{ name: 'mock-compat', 'base-url': `${compat!.url}/v1`, 'api-key-entries': [{ 'api-key': upKey('compat') }], models: [{ name: 'mock-gpt', alias: families.compat }] }],
    'beta-api-key': [{ 'api-key': upKey('beta'), 'base-url': beta!.url, models: [{ name: 'mock-claude', alias: families.beta }] }],
    'gamma-api-key': [{ 'api-key': upKey('gamma'), 'base-url': `${gamma!.url}/v1`, models: [{ name: 'mock-codex', alias: families.gamma }] }],
    'alpha-api-key': [{ 'api-key': upKey('alpha'), 'base-url': alpha!.url, models: [{ name: 'mock-gemini', alias: families.alpha }] }],
    'delta-api-key': [{ 'api-key': upKey('delta'), 'base-url': delta!.url, models: [{ name: 'mock-gemini', alias: families.delta }], 'excluded-models': ['gemini-*'] }],
  }, [], undefined, undefined, logger)
})
afterAll(async () => {
  turnCache.setBudget(24 * 1024 * 1024)
  await proxy?.close()
  await Promise.all(Object.values(upstreams ?? {}).map(upstream => upstream.close()))
})

// Placeholders filled back with prose of their recorded length (a codex developer message is 17 KB: a long string).
function expand(value: unknown, seed = { n: 1 }): unknown {
  if (typeof value === 'string') {
    const match = /^<(\d+) chars>$/.exec(value)
    return match ? `prose ${seed.n++} `.repeat(Math.ceil(Number(match[1]) / 8)).slice(0, Number(match[1])) : value.replace('<nonce>', 'probe')
  }
  if (Array.isArray(value)) return value.map(item => expand(item, seed))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, seed)]))
  return value
}

const generatePath = /^(\/v1(?:beta)?\/models\/)([^/:]+)(:.*)$/
/** The fixture's body for `model`, and grown past 32 KB (read by parts) when `large`: its list's first element repeated. */
function baseBody(fixture: ClientFixture, model: string, large: boolean): Record<string, unknown> {
  const body = expand(fixture.body) as Record<string, unknown>
  if (!generatePath.test(fixture.path)) body.model = model
  if (!large) return body
  const listKey = ['messages', 'input', 'contents'].find(key => Array.isArray(body[key]))
  if (!listKey) return body
  const list = body[listKey] as unknown[]
  const filler = listKey === 'contents' ? { role: 'user', parts: [{ text: 'padding '.repeat(600) }] } : listKey === 'input' ? { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'padding '.repeat(600) }] } : { role: 'user', content: 'padding '.repeat(600) }
  const extra = Array.from({ length: 8 }, (_, i) => ({ ...filler, role: i % 2 ? (listKey === 'contents' ? 'model' : 'assistant') : 'user' }))
  body[listKey] = [...extra, ...list]
  return body
}

const pathFor = (fixture: ClientFixture, model: string) => fixture.path.replace(generatePath, (_, head, _model, tail) => `${head}${model}${tail}`)

/** Now and then the format's other endpoints with the same body: counting tokens, the other stream forms. */
function otherPath(path: string, rand: () => number): string {
  if (rand() < 0.6) return path
  if (path.startsWith('/v1/messages')) return '/v1/messages/count_tokens'
  const generate = generatePath.exec(path)
  if (!generate) return path
  const methods = [':generateContent', ':streamGenerateContent?alt=sse', ':streamGenerateContent', ':countTokens']
  return `${generate[1]}${generate[2]}${methods[Math.floor(rand() * methods.length)]}`
}

/** Ids, timestamps and signatures a mock or a codec makes up differ between any two requests: left out. */
const normal = (text: string) => text.replace(/"(id|created|created_at|signature|responseId|createTime|thoughtSignature|call_id|tool_call_id|tool_use_id|encrypted_content)":\s*("[^"]*"|\d+)/g, '"$1":_').replace(/(msg|call|toolu|chatcmpl|resp|fc|rs)_[A-Za-z0-9_-]+/g, '$1_')

interface Seen { label: string; status: number; answer: string; upstream: string | undefined; problems: string[] }

async function send(family: Family, path: string, headers: Record<string, string>, mutation: Mutation): Promise<Seen> {
  const upstream = upstreams[family]
  const before = Object.values(upstreams).map(each => each.requests.length)
  const sent: Record<string, string> = { ...headers }
  for (const [name, value] of Object.entries(mutation.headers ?? {})) {
    if (value === undefined) delete sent[name]
    else sent[name] = value
  }
  const problems: string[] = []
  let status = 0
  let answer = ''
  const chunks = mutation.chunks
  const body = chunks ? new ReadableStream<Uint8Array>({
    start(controller) {
      const size = Math.ceil(mutation.bytes.length / chunks)
      for (let at = 0; at < mutation.bytes.length; at += size) controller.enqueue(new Uint8Array(mutation.bytes.subarray(at, at + size)))
      controller.close()
    },
  }) : new Uint8Array(mutation.bytes)
  try {
    const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: sent, body, duplex: 'half', signal: AbortSignal.timeout(10_000) } as RequestInit)
    status = response.status
    answer = await response.text()
    const headerText = JSON.stringify([...response.headers])
    if (/up-secret-/.test(answer + headerText)) problems.push('upstream key in the answer')
  } catch (error) {
    problems.push(`no answer: ${(error as Error).message} ${String((error as Error).cause)}`)
  }
  if (status >= 500) problems.push(`status ${status}: ${answer.slice(0, 200)}`)
  if (status >= 400) {
    const off = offFormat(formatOfPath(path), answer)
    if (off) problems.push(`off format (${status}): ${off}`)
  }
  // PROBE_DUMP=<dir>: each failing request written out, to replay.
  if (problems.length && process.env.PROBE_DUMP) writeFileSync(`${process.env.PROBE_DUMP}/${Date.now()}-${status}.json`, JSON.stringify({ path, headers: sent, body: mutation.bytes.toString('base64'), chunks, problems }))
  const after = Object.values(upstreams).map(each => each.requests.length)
  const calls = after.reduce((sum, count, i) => sum + count - before[i]!, 0)
  const sameFormat = { compat: '/v1/chat', beta: '/v1/messages', gamma: '/v1/responses', alpha: '/models/', delta: '/models/' }[family]
  // Same format: what went upstream means what the client sent, but the model (renamed) and stream_options (usage asked for).
  if (calls && status === 200 && path.includes(sameFormat)) {
    let client: unknown
    try { client = JSON.parse(mutation.bytes.toString()) } catch {}
    const sent = JSON.parse(upstream.requests.at(-1)!.body)
    if (client && typeof client === 'object') {
      const a = JSON.stringify({ ...client, model: 0, stream_options: 0 }), b = JSON.stringify({ ...sent, model: 0, stream_options: 0 })
      if (a !== b) problems.push(`same format, upstream body means something else: ${diffAt(a, b)}`)
    }
  }
  return { label: mutation.label, status, answer: normal(answer), upstream: calls ? normal(upstream.requests.at(-1)?.body ?? '<other family>') : undefined, problems }
}

const nameOf = (fixture: ClientFixture) => `${fixture.client}-${fixture.case}`

/** One fixture toward one family: as recorded, mutated, as recorded again. */
async function probe(run: 'on' | 'off', index: number, family: Family, large: boolean): Promise<Seen[]> {
  const fixture = fixtures[index]!
  const key = `sk-probe-${run}-${index}-${family}-${large ? 1 : 0}`
  const headers = Object.fromEntries(Object.entries(fixture.headers).map(([name, value]) => [name, value.replace('<client-key>', key)]))
  const model = families[family]
  const base = baseBody(fixture, model, large)
  const baseText = JSON.stringify(base)
  const path = pathFor(fixture, model)
  const rand = random(firstSeed + index * 1000 + Object.keys(families).indexOf(family) * 10 + (large ? 1 : 0))
  const seen = [await send(family, path, headers, { label: 'base', bytes: Buffer.from(baseText) })]
  for (let i = 0; i < mutationsPer; i++) {
    const mutation = rand() < 0.6 ? structural(base, rand) : bytewise(baseText, rand)
    const where = otherPath(path, rand)
    const first = await send(family, where, headers, mutation)
    // The same bytes again: its parts now come from the cache, and must mean what they meant.
    const second = await send(family, where, headers, { ...mutation, label: `${mutation.label} (again)` })
    if (second.status !== first.status || second.answer !== first.answer || second.upstream !== first.upstream) {
      second.problems.push(`sent again, answered differently: ${first.status} -> ${second.status}; ${diffAt(first.answer, second.answer)} ${diffAt(first.upstream ?? '', second.upstream ?? '')}`)
    }
    seen.push(first, second)
  }
  const again = await send(family, path, headers, { label: 'base again', bytes: Buffer.from(baseText) })
  if (again.status !== seen[0]!.status || again.answer !== seen[0]!.answer || again.upstream !== seen[0]!.upstream) {
    again.problems.push(`base answered differently after the mutations: ${seen[0]!.status} -> ${again.status}; ${diffAt(seen[0]!.answer, again.answer)} ${diffAt(seen[0]!.upstream ?? '', again.upstream ?? '')}`)
  }
  seen.push(again)
  return seen.map(each => ({ ...each, label: `${nameOf(fixture)}${large ? ' large' : ''} -> ${family}: ${each.label}` }))
}

function diffAt(a: string, b: string): string {
  if (a === b) return ''
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return `differs at ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 60), i + 80))} vs ${JSON.stringify(b.slice(Math.max(0, i - 60), i + 80))}`
}

async function runAll(run: 'on' | 'off', sizes: boolean[]): Promise<Seen[]> {
  const all: Seen[] = []
  for (let index = 0; index < fixtures.length; index++) {
    for (const family of Object.keys(families) as Family[]) {
      for (const large of sizes) all.push(...await probe(run, index, family, large))
    }
  }
  return all
}

const summary = (list: string[]) => [...new Set(list)].slice(0, 40).join('\n')

describe('recorded client bodies, mutated', () => {
  let on: Seen[]
  it('cache on: 2xx or a 4xx in the endpoint\'s format, no hang, no leak, the base answered the same afterwards', async () => {
    turnCache.setBudget(24 * 1024 * 1024)
    on = await runAll('on', [false, true])
    const problems = on.flatMap(each => each.problems.map(problem => `${each.label}: ${problem}`))
    expect(problems, summary(problems)).toEqual([])
  }, 600_000)

  it('cache off: the same statuses, answers and upstream bodies for the bodies read by parts', async () => {
    turnCache.setBudget(0)
    // Only bodies over 32 KB are read by parts, through the cache: the small ones take one path either way.
    const off = await runAll('off', [true])
    turnCache.setBudget(24 * 1024 * 1024)
    const large = on.filter(each => each.label.includes(' large -> '))
    const differences = off.flatMap((each, i) => {
      const other = large[i]!
      if (each.status === other.status && each.upstream === other.upstream && each.answer === other.answer) return []
      return [`${each.label}: on ${other.status}, off ${each.status}; answer ${diffAt(other.answer, each.answer)}; upstream ${diffAt(other.upstream ?? '', each.upstream ?? '')}`]
    })
    expect(differences, summary(differences)).toEqual([])
  }, 600_000)

  it('no upstream key in any log line', () => {
    const leaks = logged.filter(line => line.includes('up-secret-'))
    expect(leaks, summary(leaks.map(line => line.slice(0, 300)))).toEqual([])
  })
})
