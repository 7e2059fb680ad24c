import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { familyEntries, mergeEntries, startFaultUpstream, type FaultUpstream, type UpstreamFamily } from '../helpers/fault-upstream.ts'
import { clientCall, clientFormats, clientHeaders, type ClientFormat } from '../helpers/client-formats.ts'

/**
 * A client that goes away mid-stream (or, stream or not, while the upstream has not answered yet) gets its upstream
 * request aborted at once: the mock upstream sees its socket close within 100 ms of the client's.
 */

const families: UpstreamFamily[] = ['compat', 'beta', 'gamma', 'alpha']
let upstreams: Record<UpstreamFamily, FaultUpstream>
let proxy: TestProxy
beforeAll(async () => {
  const started = await Promise.all(families.map(family => startFaultUpstream(family)))
  upstreams = Object.fromEntries(families.map((family, i) => [family, started[i]!])) as Record<UpstreamFamily, FaultUpstream>
  // `hang-post`: a few events, then silence; `hang-pre`: no answer at all. Default (long) timeouts.
  proxy = await startTestProxy({
    'api-keys': ['k'],
    ...mergeEntries(families.flatMap(family => [
      familyEntries(family, upstreams[family].baseUrl, ['hang-post'], `${family}-mid`),
      familyEntries(family, upstreams[family].baseUrl, ['hang-pre'], `${family}-before`),
    ])),
  })
})
afterAll(async () => {
  await proxy?.close()
  await Promise.all(Object.values(upstreams ?? {}).map(upstream => upstream.close()))
})

/** Stream request (or not); destroy the socket after the first body bytes (or after `afterMs` without waiting). Resolves with the time of the destroy. */
function streamThenDisconnect(format: ClientFormat, model: string, afterMs?: number, stream = true): Promise<number> {
  const { path, body } = clientCall(format, model, stream)
  const url = new URL(path, proxy.url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: clientHeaders('k') }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`))
      res.once('data', () => {
        req.destroy()
        resolve(Date.now())
      })
    })
    req.on('error', () => {})
    req.end(JSON.stringify(body))
    if (afterMs !== undefined) {
      setTimeout(() => {
        req.destroy()
        resolve(Date.now())
      }, afterMs)
    }
  })
}

const cases = clientFormats.flatMap(client => families.map(family => ({ client, family })))

describe('client disconnect aborts the upstream request', () => {
  it.each(cases)('mid-stream: $client client, $family upstream', async ({ client, family }) => {
    const aborted = upstreams[family].nextAbort()
    const destroyedAt = await streamThenDisconnect(client, `${family}-mid`)
    const record = await aborted
    expect(record.fault).toBe('hang-post')
    expect(record.closedAt! - destroyedAt).toBeLessThanOrEqual(100)
  })

  it.each(cases)('non-stream, before the upstream answered: $client client, $family upstream', async ({ client, family }) => {
    const aborted = upstreams[family].nextAbort()
    const destroyedAt = await streamThenDisconnect(client, `${family}-before`, 200, false)
    const record = await aborted
    expect(record.fault).toBe('hang-pre')
    expect(record.closedAt! - destroyedAt).toBeLessThanOrEqual(100)
  })

  it.each(cases)('before the upstream answered: $client client, $family upstream', async ({ client, family }) => {
    const aborted = upstreams[family].nextAbort()
    const destroyedAt = await streamThenDisconnect(client, `${family}-before`, 200)
    const record = await aborted
    expect(record.fault).toBe('hang-pre')
    expect(record.closedAt! - destroyedAt).toBeLessThanOrEqual(100)
  })
})
