import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { closeFaultProxy, familyEntries, mergeEntries, startFaultUpstreams, type FaultUpstream, type UpstreamFamily } from '../helpers/fault-upstream.ts'
import { callClient, clientCall, clientHeaders, streamErrorEnding } from '../helpers/client-formats.ts'

/**
 * A stream the upstream breaks after its 200 is the upstream's failure, not the client's: `/status`
 * counts it among the errors and `/usage/series` as `upstream`, as their docs say, while a stream whose
 * client left stays `client`. Both are a 499 in the records (the client got a 200 that did not end
 * whole), which alone could not tell them apart.
 */
const secret = 'outcome-admin'
const families: UpstreamFamily[] = ['compat', 'beta']
let upstreams: Record<UpstreamFamily, FaultUpstream>
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await startFaultUpstreams(families)
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    timeouts: { 'first-byte-seconds': 2, 'stream-idle-seconds': 2 },
    ...mergeEntries(families.flatMap(family => ['cut-post', 'reset-post', 'hang-post'].map(fault => familyEntries(family, upstreams[family].baseUrl, [fault], `${family}-${fault}`)))),
  })
})
afterAll(() => closeFaultProxy(proxy, upstreams))

const admin = async (path: string) => (await fetch(`${proxy.url}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } })).json() as Promise<any>

/** Reads a stream until its text has begun, then leaves. */
async function leaveMidStream(model: string): Promise<void> {
  const { path, body } = clientCall('chat', model, true)
  const controller = new AbortController()
  const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders('k'), body: JSON.stringify(body), signal: controller.signal })
  const reader = response.body!.getReader()
  let text = ''
  while (!text.includes('Hello')) text += new TextDecoder().decode((await reader.read()).value)
  controller.abort()
}

describe('how a stream that failed after its 200 is counted', () => {
  it('broken by the upstream: an error; left by the client: not', async () => {
    for (const family of families) {
      for (const fault of ['cut-post', 'reset-post']) {
        const { status, text } = await callClient(proxy.url, 'chat', `${family}-${fault}`, true)
        expect(status).toBe(200)
        expect(streamErrorEnding('chat', text), text).toBeUndefined()
      }
    }
    await leaveMidStream('compat-hang-post')
    await upstreams.compat.nextAbort()
    // The client's leaving is seen once the upstream let go; its after-response follows at once.
    await new Promise(resolve => setTimeout(resolve, 100))

    const status = await admin('/status')
    expect(status['errors-per-minute']).toBe(4)
    expect(status['client-mistakes-per-minute']).toBe(1)
    const { buckets } = await admin('/usage/series?span=15m')
    const sum = (key: string) => buckets.reduce((total: number, bucket: Record<string, number>) => total + bucket[key]!, 0)
    expect([sum('requests'), sum('upstream'), sum('client'), sum('ok')]).toEqual([5, 4, 1, 0])
    // The records keep the status the client saw (a 200 that did not end whole).
    const { records } = await admin('/usage/export')
    expect(records.map((record: { status: number }) => record.status)).toEqual([499, 499, 499, 499, 499])
  })
})
