import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { clientCall, clientHeaders } from '../helpers/client-formats.ts'

/**
 * A key disabled, rotated or deleted while its stream is open: the stream runs to its end (docs: an
 * answer already streaming is never cut), new requests are refused, and what the stream used is counted
 * in `/usage` under the name the key had when it was served, not under the anonymous `key-<hex>` id the
 * key has once its entry is gone or changed.
 */
const secret = 'mid-stream-admin'
let upstream: UsageUpstream
let proxy: TestProxy

beforeAll(async () => {
  // Five frames, 150 ms apart: the stream is open while the key changes.
  upstream = await startUsageUpstream({ frameDelayMs: 150 })
  proxy = await startTestProxy({
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: 'm' }] }],
    'model-prices': { m: { input: 10, output: 10 } },
    'client-keys': ['disabled', 'rotated', 'deleted'].map(name => ({ key: `${name}-key`, name, budget: { usd: 10, period: 'day' } })),
  })
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const admin = (method: string, path: string, body?: unknown) => fetch(`${proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
}).then(response => response.json() as Promise<any>)

describe('a key changed while its stream is open', () => {
  it.each([
    ['disabled', { method: 'PATCH', body: { disabled: true } }],
    ['rotated', { method: 'PATCH', body: { rotate: true } }],
    ['deleted', { method: 'DELETE', body: undefined }],
  ] as const)('%s: the stream ends whole and is counted under the key\'s name', async (name, change) => {
    const { path, body } = clientCall('messages', 'm', true)
    const send = () => fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders(`${name}-key`), body: JSON.stringify(body) })
    const open = send().then(async response => ({ status: response.status, text: await response.text() }))
    await new Promise(resolve => setTimeout(resolve, 300))
    expect((await admin(change.method, `/client-keys/${name}`, change.body)).status).toBe('ok')
    expect((await send()).status).toBe(401)
    const streamed = await open
    expect(streamed.status).toBe(200)
    expect(streamed.text).toContain('message_stop')
    await expect.poll(async () => (await admin('GET', '/usage')).usage.by_client_key[name]?.success ?? 0).toBe(1)
    const byKey = (await admin('GET', '/usage')).usage.by_client_key as Record<string, { success: number }>
    expect(byKey[name]).toMatchObject({ input_tokens: 1000, output_tokens: 50, cost_usd: 0.0105 })
    // The refused request after a rotation or deletion is an unknown key's (by its id); nothing served is.
    expect(Object.entries(byKey).filter(([key, totals]) => key.startsWith('key-') && totals.success)).toEqual([])
  })
})
