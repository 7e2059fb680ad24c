import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { scriptPrompt, startScriptedUpstream, type Script, type ScriptedUpstream, type ScriptFamily } from '../helpers/scripted-usage-upstream.ts'
import { eventually } from '../recorder/helpers.ts'
import { envelopeSession, inSession, keyCounts, leaveEnvelope, normalize, overHttp, socketSession, type Got } from './ws-differential.ts'

/**
 * The same responses request over HTTP (SSE) and over the `/v1/responses` WebSocket, from every upstream
 * family, whole, cut, failing before its first byte or mid-stream, refused (model not allowed, malformed),
 * and left by its client: the same events, the same error, the same usage record and `/metrics` counts.
 * A batch of cases runs on one socket, in a row, as Codex keeps one. `FUZZ_RUNS` runs longer; `SEED` replays.
 */
const runs = Number(process.env.FUZZ_RUNS || 5)
const seed = process.env.SEED ? Number(process.env.SEED) : undefined
const secret = 'ws-diff-admin'
const families: ScriptFamily[] = ['compat', 'beta', 'gamma', 'alpha', 'delta']
const modelOf = (family: string) => `m-${family}`
const forbidden = 'm-other'
type End = 'whole' | 'cut' | 'error' | 'fail' | 'error-event' | 'not-allowed' | 'unknown-model' | 'no-model' | 'malformed' | 'leave'
interface Case { family: ScriptFamily; end: End; failStatus: number; usage: Script['usage']; style: Script['style'] }

const count = fc.nat({ max: 3000 })
const caseArb: fc.Arbitrary<Case> = fc.record({
  family: fc.constantFrom(...families),
  end: fc.constantFrom<End>('whole', 'whole', 'cut', 'error', 'fail', 'error-event', 'not-allowed', 'unknown-model', 'no-model', 'malformed'),
  failStatus: fc.constantFrom(429, 500),
  usage: fc.option(fc.record({ input: count, output: count, cacheRead: fc.constant(0), cacheWrite: fc.constant(0), reasoning: fc.constant(0) }), { nil: null }),
  style: fc.constantFrom<Script['style']>('last', 'running', 'early', 'trailing'),
})

let upstream: ScriptedUpstream
/** One proxy per transport (same config), fresh for each batch: credential rests after failures start alike. */
let proxies: Record<'h' | 'w' | 'e', TestProxy>
const keyNames: string[] = []
let config: Record<string, unknown>
async function freshProxies(): Promise<void> {
  await Promise.all(Object.values(proxies ?? {}).map(proxy => proxy.close()))
  const [h, w, e] = await Promise.all([0, 1, 2].map(() => startTestProxy(config)))
  proxies = { h: h!, w: w!, e: e! }
}
beforeAll(async () => {
  upstream = await startScriptedUpstream()
  const url = upstream.url
  const models = (family: string) => [{ name: `up-${family}`, alias: modelOf(family) }]
  for (let i = 0; i < 100; i++) keyNames.push(`h${i}`, `w${i}`, `e${i}`)
  config = {
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    'compat-provider': [{ name: 'p', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'c-1' }], models: [...models('compat'), { name: 'up-compat', alias: forbidden }] }],
    'beta-api-key': [{ 'api-key': 'b-1', 'base-url': url, models: models('beta') }],
    'gamma-api-key': [{ 'api-key': 'g-1', 'base-url': `${url}/v1`, models: models('gamma') }],
    'alpha-api-key': [{ 'api-key': 'a-1', 'base-url': url, models: models('alpha') }],
    'delta-api-key': [{ 'api-key': 'd-1', 'base-url': url, models: models('delta') }],
    'client-keys': keyNames.map(name => ({ key: `ck-${name}`, name, models: families.map(modelOf) })),
  }
  await freshProxies()
})
afterAll(async () => {
  await Promise.all(Object.values(proxies ?? {}).map(proxy => proxy.close()))
  await upstream?.close()
})

/** The request for a case; `id` (the same length for both transports) keeps the upstream's fail counts apart. */
function bodyOf(c: Case, id: string): Record<string, unknown> {
  const script: Script = { id, usage: c.usage, style: c.style, cut: c.end === 'cut', midError: c.end === 'error', slowMs: c.end === 'leave' ? 200 : undefined, fail: c.end === 'fail' || c.end === 'error-event' ? 9 : 0, failStatus: c.failStatus, failKind: c.end === 'error-event' ? 'error-event' : 'status' }
  if (c.end === 'malformed') return { model: modelOf(c.family), input: 42, stream: true }
  if (c.end === 'no-model') return { input: scriptPrompt(script), stream: true }
  const model = c.end === 'not-allowed' ? forbidden : c.end === 'unknown-model' ? 'm-nobody-serves' : modelOf(c.family)
  return { model, input: scriptPrompt(script), stream: true }
}

const admin = async (proxy: TestProxy, path: string) => (await fetch(`${proxy.url}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } })).json() as Promise<any>
const recentOfView = (view: any) => view.recent.map((r: any) => ({ status: r.status, model: r.model, input: r.inputTokens, output: r.outputTokens, estimated: r.estimated === true, cost: r.costUsd }))
/** Both keys' recent requests as accounting saw them, once both have settled (refusals may not count). */
const recentOf = (names: string[]) => eventually(async () => {
  const views = await Promise.all(names.map(name => admin(proxies[name[0] as 'h'], `/client-keys/${name}`)))
  const settled = views.every(view => view.recent && view.usage?.minute?.reserved_tokens === 0) && views[0].recent.length === views[1].recent.length
  return settled ? views.map(recentOfView) : undefined
})

const metricsOf = async (name: string) => (await fetch(`${proxies[name[0] as 'h'].url}/metrics`)).text()

function sameAnswer(label: string, http: Got, ws: Got): void {
  expect(ws.status, `${label}: status (${JSON.stringify(http.error)} / ${JSON.stringify(ws.error)})`).toBe(http.status)
  expect(normalize(ws.error), `${label}: error`).toEqual(normalize(http.error))
  // When to come back: the socket's error carries the header (its value is a clock, so only whether it is there).
  expect(ws.retryAfter !== undefined, `${label}: retry-after ${http.retryAfter} / ${ws.retryAfter}`).toBe(http.retryAfter !== undefined)
  expect(normalize(ws.events), `${label}: events`).toEqual(normalize(http.events))
}

let batchNo = 0
async function runBatch(cases: Case[]): Promise<void> {
  const batch = batchNo++ % 100
  const [hKey, wKey] = [`h${batch}`, `w${batch}`]
  await freshProxies()
  // Each case on all three at once, so time-bound routing state (cooldowns, backoff) is alike on each proxy.
  const [ws, env] = await Promise.all([socketSession(proxies.w.url, `ck-${wKey}`), envelopeSession(proxies.e.url, `ck-e${batch}`)])
  const [https, wss, envs]: Got[][] = [[], [], []]
  try {
    for (const [i, c] of cases.entries()) {
      const [h, w, e] = await Promise.all([overHttp(proxies.h.url, `ck-${hKey}`, bodyOf(c, `h${batch}-${i}`)), ws.ask(bodyOf(c, `w${batch}-${i}`)), env.ask(bodyOf(c, `e${batch}-${i}`))])
      https.push(h)
      wss.push(w!)
      envs.push(e!)
    }
  } finally {
    ws.close()
    env.close()
  }
  for (const [i, c] of cases.entries()) sameAnswer(`#${i} ${JSON.stringify(c)}`, https[i]!, wss[i]!)
  for (const [i, c] of cases.entries()) sameAnswer(`/v1/ws #${i} ${JSON.stringify(c)}`, https[i]!, envs[i]!)
  const [hRecent, wRecent] = await recentOf([hKey, wKey])
  const [, eRecent] = await recentOf([hKey, `e${batch}`])
  expect(wRecent, 'usage records').toEqual(hRecent)
  expect(eRecent, '/v1/ws usage records').toEqual(hRecent)
  const [hm, wm, em] = await Promise.all([hKey, wKey, `e${batch}`].map(async key => keyCounts(await metricsOf(key), key)))
  expect(wm, '/metrics').toEqual(hm)
  expect(em, '/v1/ws /metrics').toEqual(hm)
}

describe('responses over a WebSocket and over HTTP: the same answer, the same accounting', () => {
  it('random requests, several on one socket', async () => {
    await fc.assert(fc.asyncProperty(fc.array(caseArb, { minLength: 1, maxLength: 5 }), runBatch), { numRuns: runs, seed, endOnFailure: true })
  }, 20_000 + runs * 5_000)

  it('a client that leaves mid-answer: 499 both ways, accounted the same', async () => {
    await freshProxies()
    for (const [batch, family] of families.entries()) {
      const c: Case = { family, end: 'leave', failStatus: 500, usage: { input: 50, output: 40, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, style: 'last' }
      // Frames 200 ms apart: the client's close reaches the proxy before the next one (the estimate counts what was sent).
      const leaveAt = ' the'
      const [http, [ws], envelope] = await Promise.all([
        overHttp(proxies.h.url, `ck-h${batch}`, bodyOf(c, `h${batch}-0`), leaveAt),
        inSession(socketSession(proxies.w.url, `ck-w${batch}`, leaveAt), [bodyOf(c, `w${batch}-0`)]),
        leaveEnvelope(proxies.e.url, `ck-e${batch}`, bodyOf(c, `e${batch}-0`), leaveAt),
      ])
      sameAnswer(family, http, ws!)
      sameAnswer(`/v1/ws ${family}`, http, envelope)
      const [hRecent, wRecent] = await recentOf([`h${batch}`, `w${batch}`])
      const [, eRecent] = await recentOf([`h${batch}`, `e${batch}`])
      expect(hRecent[0].status, family).toBe(499)
      expect(wRecent, `${family}: usage records`).toEqual(hRecent)
      expect(eRecent, `/v1/ws ${family}: usage records`).toEqual(hRecent)
      const [hm, wm, em] = await Promise.all(['h', 'w', 'e'].map(async t => keyCounts(await metricsOf(`${t}${batch}`), `${t}${batch}`)))
      expect(wm, `${family}: /metrics`).toEqual(hm)
      expect(em, `/v1/ws ${family}: /metrics`).toEqual(hm)
    }
  }, 30_000)
})
