import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

// HEAD is answered wherever GET is, as GET would be, without a body (load balancers and uptime checkers
// send `HEAD /healthz`). The access decision is the GET's: same key checks, same peer address.
let proxy: TestProxy
beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': ['client-key-0123456789'], 'remote-management': { 'allow-remote': false, 'secret-key': 'mgmt-secret-head' } })
})
afterAll(() => proxy.close())

const send = (method: string, path: string, headers: Record<string, string> = {}) => fetch(`${proxy.url}${path}`, { method, headers, redirect: 'manual' })
const client = { authorization: 'Bearer client-key-0123456789' }
const management = { authorization: 'Bearer mgmt-secret-head' }

describe('HEAD', () => {
  it.each([
    ['/healthz', {}],
    ['/readyz', {}],
    ['/v1/models', client],
    ['/v1/models', {}],
    ['/v1/chat/completions', client],
    ['/v0/management/debug', management],
    ['/v0/management/debug', {}],
    ['/no/such/path', client],
  ] as Array<[string, Record<string, string>]>)('%s answers as GET does, without a body (%j)', async (path, headers) => {
    const get = await send('GET', path, headers)
    await get.arrayBuffer()
    const head = await send('HEAD', path, headers)
    expect(head.status).toBe(get.status)
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
    expect(await head.text()).toBe('')
    expect(head.headers.get('access-control-allow-origin')).toBe('*')
    expect(head.headers.get('x-request-id')).toBeTruthy()
  })

  it('a loopback client reaches loopback-only management by HEAD too (the peer address is the connection\'s)', async () => {
    expect((await send('HEAD', '/v0/management/debug', management)).status).toBe(200)
  })
})
