import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startManagedProxy, managementSecret, baseYaml } from './helpers.ts'

let upstream: MockUpstream
let managed: Awaited<ReturnType<typeof startManagedProxy>>
beforeAll(async () => {
  upstream = await startMockOpenAI()
  managed = await startManagedProxy(`${baseYaml.replace('http://127.0.0.1:9/v1', `${upstream.url}/v1`)}usage-statistics-enabled: true\n`)
})
afterAll(async () => {
  await managed.close()
  await upstream.close()
})
const call = (path: string, body: unknown, key = managementSecret) => fetch(`${managed.proxy.url}/v0/management/client-call?path=${encodeURIComponent(path)}`, {
  method: 'POST', headers: { 'x-management-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body),
})

describe('POST /v0/management/client-call', () => {
  it('sends a client request as the operator: routed, answered in the client format, counted in usage and the dashboard series', async () => {
    const answer = await call('/v1/chat/completions', { model: 'fast', messages: [{ role: 'user', content: 'hi' }] })
    expect(answer.status).toBe(200)
    expect((await answer.json()).choices[0].message.content).toContain('hi')
    // No client key reached the upstream, and the operator's key was not passed on.
    const seen = upstream.requests.at(-1)!
    expect(seen.headers['x-management-key']).toBeUndefined()
    // A stream comes back as a stream (SSE, as the client endpoint sends it).
    const stream = await call('/v1/chat/completions', { model: 'fast', stream: true, messages: [{ role: 'user', content: 'stream' }] })
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    const events = await stream.text()
    expect(events).toMatch(/^data: \{/m)
    expect(events).toContain('data: [DONE]')
    const series = await (await fetch(`${managed.proxy.url}/v0/management/usage/series?span=15m`, { headers: { authorization: `Bearer ${managementSecret}` } })).json()
    expect(series.by_key.anonymous.requests).toBe(2)
    expect(series.buckets.reduce((sum: number, b: { ok: number }) => sum + b.ok, 0)).toBe(2)
  })

  it('refuses a path outside the client endpoints, and a caller without the management key', async () => {
    expect((await call('/v0/management/config', {})).status).toBe(400)
    expect((await call('/v1/../v0/management/config', {})).status).toBe(400)
    // Dot segments written as %2e were resolved only after the check: the call reached the management route.
    for (const path of ['/v1/%2e%2e/v0/management/config', '/v1/%2E%2E/metrics', '/v1beta/.%2e/v0/management/usage', '/v1/chat/%2e%2e/%2e%2e/healthz', '//127.0.0.1/v1/chat/completions']) {
      const answer = await call(path, { model: 'fast', messages: [{ role: 'user', content: 'x' }] })
      expect({ path, status: answer.status, error: (await answer.json()).error }).toEqual({ path, status: 400, error: 'invalid path' })
    }
    // What resolves to a client endpoint is sent resolved.
    expect((await call('/v1/models/%2e%2e/chat/completions', { model: 'fast', messages: [{ role: 'user', content: 'resolved' }] })).status).toBe(200)
    expect((await call('/v1/chat/completions', { model: 'fast', messages: [] }, 'wrong')).status).toBe(401)
    expect((await fetch(`${managed.proxy.url}/v0/management/usage/series?span=2y`, { headers: { authorization: `Bearer ${managementSecret}` } })).status).toBe(400)
  })
})
