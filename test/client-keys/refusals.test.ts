import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'
import { clientCall, clientFormats, clientHeaders, type ClientFormat } from '../helpers/client-formats.ts'

/**
 * Issue 23: a named client key's rules, answered in each client's own format: 401 expired or
 * disabled, 403 a model it may not use, 429 + Retry-After a rate window, 402 a spent budget.
 */
let upstream: MockUpstream
let managed: ManagedProxy
let url: string

const yaml = (upstreamUrl: string) => `host: 127.0.0.1
remote-management: { secret-key: ${managementSecret} }
usage-statistics-enabled: true
compat-provider:
  - name: mock
    base-url: ${upstreamUrl}/v1
    api-key-entries: [{ api-key: up-1 }]
    models: [{ name: mock-gpt, alias: m }, { name: mock-gpt, alias: other }]
# Priced high on purpose: one request spends a small budget.
model-prices:
  m: { input: 1000, output: 2000 }
client-keys:
  - { key: team-plain-key, name: team, owner: alice, models: [m] }
  - { key: old-key, name: old, expires: '2020-01-31' }
  - { key: off-key, name: off, disabled: true }
`

beforeAll(async () => {
  upstream = await startMockOpenAI()
  managed = await startManagedProxy(yaml(upstream.url))
  url = managed.proxy.url
}, 20_000)
afterAll(async () => {
  await managed?.close()
  await upstream?.close()
})

const admin = (method: string, path: string, body?: unknown) => fetch(`${url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
})
const send = async (format: ClientFormat, key: string, model = 'm') => {
  const { path, body } = clientCall(format, model, false)
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: clientHeaders(key), body: JSON.stringify(body) })
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() as any }
}
const createKey = async (body: Record<string, unknown>) => {
  const response = await admin('POST', '/client-keys', body)
  expect(response.status).toBe(200)
  return (await response.json() as { key: string }).key
}

/** The error's kind as each format states it. */
function errorKind(format: ClientFormat, body: any): string {
  if (format === 'messages') {
    expect(body.type).toBe('error')
    return body.error.type
  }
  if (format.startsWith('generate')) {
    expect(typeof body.error.code).toBe('number')
    return body.error.status
  }
  expect(body.error).toHaveProperty('code')
  return body.error.type
}

const formats = clientFormats.filter(format => format !== 'generate-array')

describe.each(formats)('refusals in the %s format', (format) => {
  it('401 for an expired key and for a disabled one', async () => {
    for (const key of ['old-key', 'off-key']) {
      const answer = await send(format, key)
      expect(answer.status).toBe(401)
      expect(errorKind(format, answer.body)).toBe(format === 'messages' ? 'authentication_error' : format.startsWith('generate') ? 'UNAUTHENTICATED' : 'authentication_error')
    }
  })

  it('403 for a model the key may not use; the allowed one answers', async () => {
    expect((await send(format, 'team-plain-key')).status).toBe(200)
    const answer = await send(format, 'team-plain-key', 'other')
    expect(answer.status).toBe(403)
    expect(errorKind(format, answer.body)).toBe(format === 'messages' ? 'permission_error' : format.startsWith('generate') ? 'PERMISSION_DENIED' : 'permission_error')
  })

  it('429 with Retry-After once the minute\'s requests are used', async () => {
    const key = await createKey({ name: `rpm-${format}`, rpm: 2 })
    expect((await send(format, key)).status).toBe(200)
    expect((await send(format, key)).status).toBe(200)
    const answer = await send(format, key)
    expect(answer.status).toBe(429)
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1)
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60)
    expect(errorKind(format, answer.body)).toBe(format === 'messages' ? 'rate_limit_error' : format.startsWith('generate') ? 'RESOURCE_EXHAUSTED' : 'rate_limit_error')
  })

  it('402 once the budget is spent, with when it starts over', async () => {
    const key = await createKey({ name: `budget-${format}`, budget: { usd: 0.001, period: 'day' } })
    expect((await send(format, key)).status).toBe(200)
    const answer = await send(format, key)
    expect(answer.status).toBe(402)
    expect(Number(answer.retryAfter)).toBeGreaterThan(0)
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(86_400)
    expect(errorKind(format, answer.body)).toBe(format === 'messages' ? 'billing_error' : format.startsWith('generate') ? 'FAILED_PRECONDITION' : 'insufficient_quota')
    if (!format.startsWith('generate') && format !== 'messages') expect(answer.body.error.code).toBe('budget_exceeded')
  })
})

describe('keys, listings, usage and cost', () => {
  it('the YAML keeps only hashes; the API never shows a key after creating it', async () => {
    expect(managed.text()).not.toContain('team-plain-key')
    expect(managed.text()).toMatch(/sha256:[0-9a-f]{64}/)
    const key = await createKey({ name: 'shown-once', owner: 'bob', tpm: 1000 })
    expect(key).toMatch(/^sk-proxy-/)
    const listed = await (await admin('GET', '/client-keys')).text()
    expect(listed).not.toContain(key)
    expect(listed).not.toContain('team-plain-key')
    expect(managed.text()).not.toContain(key)
    const one = await (await admin('GET', '/client-keys/shown-once')).json() as any
    expect(one).toMatchObject({ name: 'shown-once', owner: 'bob', tpm: 1000, state: 'active' })
  })

  it('PATCH changes rules and rotates; DELETE removes the key', async () => {
    const key = await createKey({ name: 'to-change' })
    expect((await send('chat', key)).status).toBe(200)
    expect((await admin('PATCH', '/client-keys/to-change', { disabled: true })).status).toBe(200)
    expect((await send('chat', key)).status).toBe(401)
    const rotated = await (await admin('PATCH', '/client-keys/to-change', { disabled: null, rotate: true })).json() as { key: string }
    expect((await send('chat', key)).status).toBe(401)
    expect((await send('chat', rotated.key)).status).toBe(200)
    expect((await admin('DELETE', '/client-keys/to-change')).status).toBe(200)
    expect((await send('chat', rotated.key)).status).toBe(401)
    expect((await admin('GET', '/client-keys/to-change')).status).toBe(404)
  })

  it('a stream runs to its end and is counted then, in every format', async () => {
    const key = await createKey({ name: 'streamer', tpm: 100_000 })
    for (const format of formats) {
      const { path, body } = clientCall(format, 'm', true)
      const response = await fetch(`${url}${path}`, { method: 'POST', headers: clientHeaders(key), body: JSON.stringify(body) })
      expect(response.status).toBe(200)
      expect(await response.text()).toMatch(/data: /)
    }
    await expect.poll(async () => (await (await admin('GET', '/client-keys/streamer')).json() as any).usage.minute.tokens).toBeGreaterThan(0)
    const view = await (await admin('GET', '/client-keys/streamer')).json() as any
    expect(view.recent).toHaveLength(formats.length)
    // Every stream is settled with the usage its upstream reported (a chat client that did not ask for
    // it too: the proxy asks the upstream), never with its reservation.
    const reported = view.recent.filter((r: { inputTokens: number }) => r.inputTokens > 0)
    expect(reported.length).toBe(formats.length)
    expect(view.usage.minute.tokens).toBe(reported.reduce((sum: number, r: { inputTokens: number; outputTokens: number }) => sum + r.inputTokens + r.outputTokens, 0))
  })

  it('a key lists only the models it may use', async () => {
    const team = await (await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer team-plain-key' } })).json() as { data: Array<{ id: string }> }
    expect(team.data.map(model => model.id)).toEqual(['m'])
    const gen = await (await fetch(`${url}/v1beta/models`, { headers: { 'x-goog-api-key': 'team-plain-key' } })).json() as { models: Array<{ name: string }> }
    expect(gen.models.map(model => model.name)).toEqual(['models/m'])
  })

  it('cost per key in /usage, in the key view, in export and import', async () => {
    const { usage } = await (await admin('GET', '/usage')).json() as any
    expect(usage.by_client_key.team.cost_usd).toBeGreaterThan(0)
    expect(usage.by_client_key.team.requests).toBeGreaterThan(0)
    expect(usage.by_model.m.cost_usd).toBeGreaterThan(0)
    expect(Object.values(usage.by_day as Record<string, { cost_usd: number }>)[0]!.cost_usd).toBeGreaterThan(0)
    expect(JSON.stringify(usage)).not.toContain('team-plain-key')
    const view = await (await admin('GET', '/client-keys/team')).json() as any
    expect(view.usage.spent_usd.day).toBeCloseTo(usage.by_client_key.team.cost_usd, 6)
    expect(view.recent.find((r: { status: number }) => r.status === 200)).toMatchObject({ model: 'm', costUsd: expect.any(Number) })
    expect(view.recent.some((r: { status: number; model: string }) => r.status === 403 && r.model === 'other')).toBe(true)
    const exported = await (await admin('GET', '/usage/export')).json() as { records: Array<{ keyName?: string; cost?: number }> }
    const teamRecords = exported.records.filter(record => record.keyName === 'team')
    expect(teamRecords.length).toBeGreaterThan(0)
    expect(teamRecords.every(record => typeof record.cost === 'number')).toBe(true)
    const other = await startManagedProxy(yaml(upstream.url))
    try {
      await fetch(`${other.proxy.url}/v0/management/usage/import`, { method: 'POST', headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: JSON.stringify(exported) })
      const imported = await (await fetch(`${other.proxy.url}/v0/management/usage`, { headers: { authorization: `Bearer ${managementSecret}` } })).json() as any
      expect(imported.usage.by_client_key.team.cost_usd).toBeCloseTo(usage.by_client_key.team.cost_usd, 6)
    } finally {
      await other.close()
    }
  })

  it('metrics per key name, never the key', async () => {
    const text = await (await fetch(`${url}/metrics`)).text()
    expect(text).toMatch(/proxy_client_key_requests_total\{key="team",status="200"\} \d+/)
    expect(text).toMatch(/proxy_client_key_cost_usd_total\{key="team"\} [\d.e-]+/)
    expect(text).toMatch(/proxy_client_key_rejections_total\{key="team",reason="model"\} \d+/)
    expect(text).toMatch(/proxy_client_key_rejections_total\{key="old",reason="expired"\} \d+/)
    expect(text).toMatch(/proxy_client_key_tokens_total\{key="team",type="input"\} \d+/)
    expect(text).not.toContain('team-plain-key')
  })
})
