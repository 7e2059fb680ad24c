import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { clientCall, clientHeaders, type ClientFormat } from '../helpers/client-formats.ts'

/**
 * A client that leaves while the proxy waits for the upstream's first event (an agent's Esc, a timeout):
 * the request ends for every `after-response` observer like any other. Its client key's reservation is
 * settled at once (it held the key's tpm and budget for the 15 minutes a reservation lives), and it is
 * in `/usage` and the key's recent requests as a 499, charged the estimate of the prompt it sent.
 */
const secret = 'left-early-admin'
let upstream: UsageUpstream
let proxy: TestProxy

beforeAll(async () => {
  // The first event comes after 300 ms: the client is gone before it.
  upstream = await startUsageUpstream({ frameDelayMs: 300 })
  proxy = await startTestProxy({
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: 'm' }] }],
    'model-prices': { m: { input: 10, output: 10 } },
    'client-keys': [{ key: 'agent-key', name: 'agent', tpm: 1_000_000, budget: { usd: 10, period: 'day' } }],
  })
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const admin = (path: string) => fetch(`${proxy.url}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } }).then(r => r.json() as Promise<any>)
const formats: ClientFormat[] = ['chat', 'messages', 'responses', 'generate-sse', 'generate-array']

describe('a client that leaves before the first byte', () => {
  it('settles its key\'s reservation and is counted as a 499', async () => {
    for (const format of formats) {
      const { path, body } = clientCall(format, 'm', true)
      const controller = new AbortController()
      const sent = fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders('agent-key'), body: JSON.stringify(body), signal: controller.signal }).catch(error => error)
      await expect.poll(() => upstream.requests.length).toBeGreaterThan(formats.indexOf(format))
      controller.abort()
      expect(await sent).toBeInstanceOf(Error)
    }
    await expect.poll(async () => (await admin('/client-keys/agent')).recent.length).toBe(formats.length)
    const view = await admin('/client-keys/agent')
    expect(view.usage.minute.reserved_tokens).toBe(0)
    expect(view.usage.reserved_usd).toBe(0)
    expect(view.recent.every((r: { status: number; estimated?: boolean; outputTokens: number }) => r.status === 499 && r.estimated && r.outputTokens === 0)).toBe(true)
    const charged = view.recent.reduce((sum: number, r: { costUsd: number }) => sum + r.costUsd, 0)
    expect(charged).toBeGreaterThan(0)
    expect(view.usage.spent_usd.day).toBeCloseTo(charged, 9)
    await expect.poll(async () => (await admin('/usage')).usage.by_client_key.agent?.requests).toBe(formats.length)
    expect((await admin('/usage')).usage.by_client_key.agent).toMatchObject({ success: 0, failure: formats.length, estimated_requests: formats.length })
  }, 20_000)
})
