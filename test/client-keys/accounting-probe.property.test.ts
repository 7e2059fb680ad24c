import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { scriptPrompt, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-usage-upstream.ts'
import { awayFromMinuteEdge } from '../helpers/minute-edge.ts'
import { eventually } from '../recorder/helpers.ts'
import { caseArb, expectedOf, families, forbiddenModel, modelOf, scriptOf, terminalMarker, type Case, type Expected } from './accounting-cases.ts'
import { fromAccessLine, fromKeyView, fromRecord, fromSpan, fromUsageRecord, keyMetrics, mainLogLine, metricTotals, send, sortedSeen, type Seen } from './accounting-views.ts'
import { settlementPrice } from './settlement-prices.ts'
import { clientTold } from './client-told.ts'

/**
 * Random batches of requests through one proxy (every client format x upstream family, streams or not,
 * usage reported in odd but valid ways or not at all, answers cut by the upstream, clients that leave,
 * failures before the first byte with and without a failover), sent at once. Every view of each request
 * (`/usage`, the key's spend, tpm and recent requests, the recorder, the access log, the main log, the
 * span, and `/metrics` in total) must agree, and equal what the scripted upstream sent. `FUZZ_RUNS`
 * runs it longer; `SEED` replays a failure.
 */
const secret = 'accounting-probe-admin'
const runs = Number(process.env.FUZZ_RUNS || 16)
const seed = process.env.SEED ? Number(process.env.SEED) : undefined

let upstream: ScriptedUpstream
let receiver: OtlpReceiver
let access: any[] = []
let writeSpy: ReturnType<typeof vi.spyOn> | undefined
beforeAll(async () => {
  upstream = await startScriptedUpstream()
  receiver = await startOtlpReceiver()
  const write = process.stdout.write.bind(process.stdout)
  // The access log's JSON lines go to stdout: kept here, not printed.
  writeSpy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: any[]) => {
    const text = String(chunk)
    if (text.startsWith('{"time"') && text.includes('"msg":"request"')) { access.push(JSON.parse(text)); return true }
    return write(chunk, ...rest)
  }) as never)
})
afterAll(async () => {
  writeSpy?.mockRestore()
  await upstream?.close()
  await receiver?.close()
})

const credentials = (key: string, url: string) => [1, 2].map(n => ({ 'api-key': `${key}-${n}`, 'base-url': url }))

async function startProxy(keys: string[], logsDir: string): Promise<TestProxy> {
  const url = upstream.url
  const models = (family: string) => [{ name: `up-${family}`, alias: modelOf(family as never) }]
  return startTestProxy({
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    recorder: { mode: 'all' },
    otel: { endpoint: receiver.url },
    'access-log': 'json',
    'logging-to-file': true,
    'logs-dir': logsDir,
    'request-retry': 1,
    'compat-provider': [{ name: 'p', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'c-1' }, { 'api-key': 'c-2' }], models: [...models('compat'), { name: 'up-compat', alias: forbiddenModel }] }],
    'beta-api-key': credentials('b', url).map(entry => ({ ...entry, models: models('beta') })),
    'gamma-api-key': credentials('g', `${url}/v1`).map(entry => ({ ...entry, models: models('gamma') })),
    'alpha-api-key': credentials('a', url).map(entry => ({ ...entry, models: models('alpha') })),
    'delta-api-key': credentials('d', url).map(entry => ({ ...entry, models: models('delta') })),
    'model-prices': Object.fromEntries(families.map(family => [modelOf(family), settlementPrice])),
    'client-keys': keys.map(name => ({ key: `ck-${name}`, name, tpm: 100_000_000, budget: { usd: 1000, period: 'day' }, models: families.map(modelOf) })),
  })
}

/** Every figure a view shows must be the expected one (exact counts), or keep an estimate's promises. */
function check(label: string, seen: Seen, want: Expected): void {
  if (seen.estimated !== undefined) expect(seen.estimated, `${label}: estimated`).toBe(want.estimated)
  if (want.exact) {
    const exact = { input: want.exact.input, output: want.exact.output, cached: want.exact.cacheRead, cacheWrite: want.exact.cacheWrite, reasoning: want.exact.reasoning, cost: want.exact.cost }
    for (const [field, value] of Object.entries(exact)) {
      const got = seen[field as keyof Seen]
      if (got === undefined) continue
      if (field === 'cost') expect(Math.abs((got as number) - value), `${label}: cost ${got} for ${value}`).toBeLessThanOrEqual(costTolerance)
      else expect(got, `${label}: ${field}`).toBe(value)
    }
  }
  if (want.prompt) {
    if (seen.input !== undefined) expect(seen.input, `${label}: the prompt reported before the stop`).toBe(want.prompt.input)
    if (seen.cached !== undefined) expect(seen.cached, `${label}: cache reads reported before the stop`).toBe(want.prompt.cacheRead)
    if (seen.cacheWrite !== undefined) expect(seen.cacheWrite, `${label}: cache writes reported before the stop`).toBe(want.prompt.cacheWrite)
  }
  if (want.outputAtLeast !== undefined && seen.output !== undefined) expect(seen.output, `${label}: output below what was reported`).toBeGreaterThanOrEqual(want.outputAtLeast)
}

/** Costs of one request are the same float everywhere (sums and windows are checked with their rounding). */
const costTolerance = 1e-12

/** The figures two views both show must be equal. */
function agree(label: string, a: Seen, b: Seen): void {
  for (const field of ['input', 'output', 'cached', 'cacheWrite', 'reasoning', 'estimated'] as const) {
    if (a[field] !== undefined && b[field] !== undefined) expect(a[field], `${label}: ${field}`).toBe(b[field])
  }
  if (a.cost !== undefined && b.cost !== undefined) expect(Math.abs(a.cost - b.cost), `${label}: cost ${a.cost} vs ${b.cost}`).toBeLessThanOrEqual(costTolerance)
}

let batchNo = 0
async function runBatch({ cases, keyCount }: { cases: Case[]; keyCount: number }): Promise<void> {
  const batch = batchNo++
  const names = cases.map((_, i) => `b${batch}-r${i}`)
  // Requests share keys: each key's windows must hold the sum of its requests, each once.
  const keys = Array.from({ length: Math.min(keyCount, cases.length) }, (_, k) => `b${batch}-k${k}`)
  const keyOf = (i: number) => keys[i % keys.length]!
  const logsDir = mkdtempSync(join(tmpdir(), 'acct-probe-'))
  await awayFromMinuteEdge(8000)
  const proxy = await startProxy(keys, logsDir)
  access = []
  const admin = async (path: string) => {
    const response = await fetch(`${proxy.url}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } })
    expect(response.status, path).toBe(200)
    return response.json() as Promise<any>
  }
  let closed = false
  try {
    const traces = cases.map(() => randomBytes(16).toString('hex'))
    const ids = names.map(name => `${name}-${randomBytes(4).toString('hex')}`)
    const sent = await Promise.all(cases.map((c, i) => {
      const script = scriptOf(c, ids[i]!)
      const traceparent = `00-${traces[i]}-${randomBytes(8).toString('hex')}-01`
      const leave = c.end === 'leave' ? ' from' : c.end === 'left-after-end' ? (c.incomplete && c.client === 'responses' ? 'response.incomplete' : terminalMarker[c.client]) : undefined
      return send(proxy.url, c.client, c.end === 'not-allowed' ? forbiddenModel : modelOf(c.family), c.stream, scriptPrompt(script), { key: `ck-${keyOf(i)}`, requestId: `req-${script.id}`, traceparent, leave, askUsage: c.askUsage, abortAfterMs: c.end === 'gone' ? 150 : undefined })
    }))
    const wants = cases.map(expectedOf)
    const statusOf = cases.map((c, i) => {
      const want = wants[i]!.status
      const clientStatus = want === 499 ? 200 : want
      const label = `${names[i]} ${JSON.stringify(c)}: the client's status ${sent[i]!.text.slice(0, 300)}`
      if (c.end === 'gone') expect(sent[i]!.status, label).toBe(0)
      else if (clientStatus === 'client') expect(sent[i]!.status, label).toBeGreaterThanOrEqual(500)
      else expect(sent[i]!.status, label).toBe(clientStatus)
      return want === 'client' ? sent[i]!.status : want
    })
    // Every view has its record once the recorder has it (after-response observers run together).
    const records = await Promise.all(sent.map(({ id }) => eventually(async () => {
      const response = await fetch(`${proxy.url}/v0/management/requests/${id}`, { headers: { authorization: `Bearer ${secret}` } })
      return response.status === 200 ? response.json() as Promise<any> : undefined
    })))
    const keyViews = await Promise.all(keys.map(key => eventually(async () => {
      const view = await admin(`/client-keys/${key}`)
      return view.recent.length === cases.filter((_, i) => keyOf(i) === key).length && view.usage.minute.reserved_tokens === 0 ? view : undefined
    })))
    const usage = (await admin('/usage')).usage
    const exported = new Map<string, any>((await admin('/usage/export')).records.map((record: any) => [record.id, record]))
    const series = await admin('/usage/series?span=15m')
    const status = await admin('/status')
    const metricsText = await (await fetch(`${proxy.url}/metrics`)).text()
    const metrics = metricTotals(metricsText)
    await proxy.close()
    closed = true
    const spans = await eventually(async () => {
      const found = traces.map(trace => receiver.spans.find(span => span.traceId === trace && span.kind === 2))
      return found.every(Boolean) ? found : undefined
    })

    const totals = { input: 0, output: 0, cached: 0, cacheWrite: 0, reasoning: 0, estimated: 0 }
    const statuses: Record<string, number> = {}
    const perRequest: Seen[] = []
    let retries = 0
    cases.forEach((c, i) => {
      const want = { ...wants[i]!, status: statusOf[i]! }
      const label = `${names[i]} ${JSON.stringify(c)}`
      expect(exported.has(sent[i]!.id), `${label}: one /usage record`).toBe(true)
      const row = fromUsageRecord(exported.get(sent[i]!.id))
      expect(row.status, `${label}: /usage status`).toBe(want.status)
      const record = fromRecord(records[i])
      // The recorder keeps the status the client got (none: 499), and the error.
      expect(record.status, `${label}: recorder status`).toBe(want.status === 499 && c.end !== 'gone' ? 200 : want.status)
      if (want.status === 499) expect(record.error, `${label}: recorder error`).toBeTruthy()
      const lines = access.filter(entry => entry.request_id === sent[i]!.id)
      expect(lines.length, `${label}: one access line`).toBe(1)
      const accessSeen = fromAccessLine(lines[0])
      expect(accessSeen.status, `${label}: access status`).toBe(want.status)
      expect(mainLogLine(logsDir, sent[i]!.id)?.status, `${label}: main log status`).toBe(want.status)
      const span = fromSpan(spans[i]!)
      // The span, as the recorder, says the status the client got.
      expect(span.status, `${label}: span status`).toBe(record.status)
      // Attempts: as many as the upstream saw, in the record and on the span.
      const attempts = upstream.attempts.get(ids[i]!) ?? 0
      expect(records[i].attempts.length, `${label}: recorded attempts`).toBe(attempts)
      expect(spans[i]!.attributes['proxy.attempts'], `${label}: the span's attempts`).toBe(attempts)
      expect(receiver.spans.filter(span => span.traceId === traces[i] && span.kind === 3).length, `${label}: attempt spans`).toBe(attempts)
      retries += Math.max(0, attempts - 1)
      const views: Array<[string, Seen]> = [['record', row], ['recorder', record], ['access', accessSeen], ['span', { ...span, status: undefined }]]
      for (const [view, seen] of views) check(`${label} ${view}`, seen, want)
      for (const [view, seen] of views.slice(1)) agree(`${label} record vs ${view}`, row, seen)
      // The client was told the same counts in its own format's fields (a chat stream only when it asked).
      const chatStream = c.stream && (c.client === 'chat' || c.client === 'completions')
      if (c.usage && (c.end === 'whole' || c.end === 'failover') && (!chatStream || c.askUsage === true)) {
        expect(clientTold(c.client, c.stream, sent[i]!.text), `${label}: what the client was told ${sent[i]!.text.slice(-600)}`).toEqual({ input: c.usage.input, output: c.usage.output, cached: c.usage.cacheRead })
      }
      perRequest.push(row)
      totals.input += row.input!
      totals.output += row.output!
      totals.cached += row.cached!
      totals.cacheWrite += row.cacheWrite!
      totals.reasoning += row.reasoning!
      if (row.estimated) totals.estimated += row.input! + row.output!
      statuses[want.status] = (statuses[want.status] ?? 0) + 1
    })
    keys.forEach((key, k) => {
      const mine = perRequest.filter((_, i) => keyOf(i) === key)
      const sum = (field: keyof Seen) => mine.reduce((total, seen) => total + Number(seen[field] ?? 0), 0)
      const row = usage.by_client_key[key]
      expect({ requests: row.requests, failure: row.failure, input: row.input_tokens, output: row.output_tokens, estimated: row.estimated_requests }, `${key}: /usage by key`).toEqual({
        requests: mine.length, failure: mine.filter(seen => seen.status! >= 400).length, input: sum('input'), output: sum('output'), estimated: mine.filter(seen => seen.estimated).length,
      })
      expect(Math.abs(row.cost_usd - sum('cost')), `${key}: /usage cost`).toBeLessThanOrEqual(5.000001e-7)
      // The key's own view: its recent requests are these, each once; its windows their sums.
      const view = fromKeyView(keyViews[k])
      expect(sortedSeen(view.recent), `${key}: recent requests`).toEqual(sortedSeen(mine.map(seen => ({ ...seen, cached: undefined }))))
      expect(view.tpm, `${key}: tpm tokens`).toBe(sum('input') + sum('output'))
      expect(Math.abs(view.spent - sum('cost')), `${key}: spend`).toBeLessThanOrEqual(mine.length * 1e-9)
      const perKey = keyMetrics(metricsText, key)
      const byStatus: Record<string, number> = {}
      for (const seen of mine) byStatus[seen.status!] = (byStatus[seen.status!] ?? 0) + 1
      expect(perKey.requests, `${key}: requests in /metrics`).toEqual(byStatus)
      expect([perKey.input, perKey.output], `${key}: tokens in /metrics`).toEqual([sum('input'), sum('output')])
      expect(Math.abs(perKey.cost! - sum('cost')), `${key}: cost in /metrics`).toBeLessThanOrEqual(1e-9)
      // The dashboard's series: the same requests and cost, the same successes.
      const charted = series.by_key[key]
      expect([charted.requests, charted.ok], `${key}: /usage/series`).toEqual([mine.length, mine.filter(seen => seen.status! < 400).length])
      expect(Math.abs(charted.cost_usd - sum('cost')), `${key}: /usage/series cost`).toBeLessThanOrEqual(5.000001e-7)
    })
    expect(usage.requests, '/usage requests').toBe(cases.length)
    // The dashboard's status counts the minute's requests as the series sorts them.
    const outcomes = Object.values(series.by_key as Record<string, { ok: number; client: number; upstream: number; proxy: number }>)
    const outcome = (field: 'client' | 'upstream' | 'proxy') => outcomes.reduce((total, group) => total + group[field], 0)
    expect([status['requests-per-minute'], status['errors-per-minute'], status['client-mistakes-per-minute']], '/status').toEqual([cases.length, outcome('upstream') + outcome('proxy'), outcome('client')])
    const tokens = metrics.tokens
    expect({ input: tokens.input ?? 0, output: tokens.output ?? 0, cached: tokens.cached ?? 0, cacheWrite: tokens.cache_write ?? 0, reasoning: tokens.reasoning ?? 0, estimated: tokens.estimated ?? 0 }, '/metrics tokens').toEqual(totals)
    expect(metrics.requests, '/metrics requests by status').toEqual(statuses)
    expect(metrics.retries, `/metrics retries: ${metricsText.split('\n').filter(line => line.startsWith('proxy_upstream_retries_total{')).join('; ')}`).toBe(retries)
  } finally {
    if (!closed) await proxy.close()
    rmSync(logsDir, { recursive: true, force: true })
  }
}

describe('accounting probe: every view of a request agrees, and with the upstream', () => {
  it('random batches through one proxy', { timeout: 600_000 }, async () => {
    await fc.assert(fc.asyncProperty(fc.record({ cases: fc.array(caseArb, { minLength: 1, maxLength: 8 }), keyCount: fc.integer({ min: 1, max: 8 }) }), runBatch), { numRuns: runs, seed, endOnFailure: true })
  })
})
