import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from './helpers.ts'

/**
 * `POST /api-call` when the upstream does not answer: a refused connection is a 502 that says so, a
 * silent upstream a 504 within `timeouts.first-byte-seconds` (never a hang, never a 500), and neither
 * names the address or quotes the credential.
 */

let silent: Server
const held: Socket[] = []
let refusedPort: number
let managed: ManagedProxy
beforeAll(async () => {
  silent = createServer(socket => void held.push(socket))
  await new Promise<void>(resolve => silent.listen(0, '127.0.0.1', resolve))
  const closed = createServer()
  await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve))
  refusedPort = (closed.address() as { port: number }).port
  await new Promise<void>(resolve => closed.close(() => resolve()))
  const silentPort = (silent.address() as { port: number }).port
  const yaml = baseYaml.replace('http://127.0.0.1:9/v1', `http://127.0.0.1:${refusedPort}/v1`)
    .replace('compat-provider:\n', `timeouts:\n  first-byte-seconds: 1\ncompat-provider:\n  - name: quiet\n    base-url: http://127.0.0.1:${silentPort}/v1\n    api-key-entries:\n      - api-key: up-quiet-secret\n    models:\n      - name: quiet-gpt\n`)
  managed = await startManagedProxy(yaml)
})
afterAll(async () => {
  await managed?.close()
  for (const socket of held) socket.destroy()
  await new Promise<void>(resolve => silent.close(() => resolve()))
})

const apiCall = async (credential: string) => {
  const response = await fetch(`${managed.proxy.url}/v0/management/api-call`, {
    method: 'POST', headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ credential, method: 'GET', path: '/models' }),
  })
  return { status: response.status, text: await response.text() }
}

describe('api-call against an upstream that does not answer', () => {
  it('a refused connection: 502 that says so, without the address', async () => {
    const id = managed.proxy.proxy.kernel.credentials.find(c => c.baseUrl.includes(String(refusedPort)))!.id
    const { status, text } = await apiCall(id)
    expect(status, text).toBe(502)
    expect(JSON.parse(text).error).toBe('upstream connection failed: connection refused')
    expect(text).not.toContain(String(refusedPort))
  })

  it('a silent upstream: 504 after first-byte-seconds, the key never quoted', async () => {
    const id = managed.proxy.proxy.kernel.credentials.find(c => c.baseUrl.includes('/v1') && c.apiKey === 'up-quiet-secret')!.id
    const started = Date.now()
    const { status, text } = await apiCall(id)
    expect(status, text).toBe(504)
    expect(JSON.parse(text).error).toBe('the upstream did not answer within 1 s')
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(text).not.toContain('up-quiet-secret')
    // The proxy keeps serving its management API.
    expect((await fetch(`${managed.proxy.url}/v0/management/config`, { headers: { authorization: `Bearer ${managementSecret}` } })).status).toBe(200)
  })
})
