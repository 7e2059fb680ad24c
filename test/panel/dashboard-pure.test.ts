import { describe, expect, it } from 'vitest'
import { axisLabel, bucketLabel, niceMax, sumBuckets } from '../../panel/src/series.ts'
import { tryPlan } from '../../panel/src/try-plan.ts'
import { asSession } from '../../panel/src/client-call.ts'

describe('dashboard helpers', () => {
  it.each([[0, 1], [1, 1], [3, 5], [7, 10], [10, 10], [11, 20], [75, 100], [1063, 2000], [0.4, 0.5]])('niceMax(%d) = %d', (max, top) => {
    expect(niceMax(max)).toBe(top)
  })

  it.each([[0, ' ms', '0 ms'], [500, ' ms', '500 ms'], [1000, ' ms', '1 s'], [1500, ' ms', '1.5 s'], [2000, ' ms', '2 s'], [12345, '', '12,345']])('axisLabel(%d, %j) = %s', (value, unit, label) => {
    expect(axisLabel(value, unit)).toBe(label)
  })

  it('labels buckets by minute within a day and by hour over days; sums them', () => {
    const time = new Date(2026, 10, 27, 14, 5).getTime()
    expect(bucketLabel(time, 60_000)).toBe('14:05')
    expect(bucketLabel(time, 4 * 3_600_000)).toBe('11-27 14h')
    const bucket = { requests: 3, ok: 1, client: 1, upstream: 1, proxy: 0, p50_ms: 1, p95_ms: 1, cache_hit_ratio: null, cost_usd: 0 }
    expect(sumBuckets([bucket, bucket])).toEqual({ requests: 6, ok: 2, client: 2, upstream: 2, proxy: 0 })
  })

  it('"try it" plans one request per family, in turn through the client formats, every other one streamed', () => {
    const model = (id: string, family: string, available = true) => ({ id, available, upstreams: [{ family }] })
    expect(tryPlan([model('a1', 'alpha'), model('a2', 'alpha'), model('b1', 'beta', false), model('b2', 'beta'), model('c', 'compat'), model('g', 'gamma'), model('d', 'delta')])).toEqual([
      { model: 'a1', format: 'chat', stream: false },
      { model: 'b2', format: 'responses', stream: true },
      { model: 'c', format: 'messages', stream: false },
      { model: 'g', format: 'generate', stream: true },
      { model: 'd', format: 'chat', stream: false },
    ])
  })

  it('a client call sent as the operator drops every client key header and goes through client-call', () => {
    const sent = asSession({ path: '/v1/messages', headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': 'v' }, body: { a: 1 } }, 'admin')
    expect(sent).toEqual({ path: '/v0/management/client-call?path=%2Fv1%2Fmessages', headers: { 'content-type': 'application/json', 'anthropic-version': 'v', 'x-management-key': 'admin' }, body: { a: 1 } })
    expect(asSession({ path: '/v1/chat/completions', headers: { Authorization: 'Bearer k' }, body: {} }, 'admin').headers).toEqual({ 'x-management-key': 'admin' })
  })
})
