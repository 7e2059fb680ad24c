import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { until, localStdioServer, serverUp } from './servers.ts'

/** A 2025 session's `notifications/cancelled` stops its call, whether it comes on its own POST or in the call's batch. */
let proxy: TestProxy
const local = localStdioServer
const outcomes: string[] = []

beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': ['cancel-key'], 'mcp-servers': [local] })
  ;(proxy.proxy.kernel.services.mcpToolCall as Array<(record: { outcome: string }) => void>).push(record => { outcomes.push(record.outcome) })
  await serverUp(proxy, 'local')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

const headers = (session?: string) => ({
  authorization: 'Bearer cancel-key', 'content-type': 'application/json', accept: 'application/json, text/event-stream',
  ...(session && { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }),
})
const post = (body: unknown, session?: string) => fetch(`${proxy.url}/mcp`, { method: 'POST', headers: headers(session), body: JSON.stringify(body) })
const sleep = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'local__sleep', arguments: { ms: 5000 } } })
const cancel = (id: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'changed my mind' } })
const within = <T>(ms: number, promise: Promise<T>) => Promise.race([promise, new Promise<'late'>(resolve => setTimeout(() => resolve('late'), ms))])

async function session(): Promise<string> {
  const answer = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cancel-test', version: '1' } } })
  await answer.text()
  return answer.headers.get('mcp-session-id')!
}

describe('notifications/cancelled of a 2025 session', () => {
  it('in the call\'s own batch: the call stops and the POST ends, not left open', async () => {
    const id = await session()
    outcomes.length = 0
    const answer = await post([sleep(5), cancel(5)], id)
    expect(answer.status).toBe(200)
    expect(await within(2500, answer.text())).not.toBe('late')
    expect(outcomes).toEqual(['error'])
  })

  it('on a POST of its own: the call running on another POST stops', async () => {
    const id = await session()
    outcomes.length = 0
    const running = post(sleep(6), id).then(answer => answer.text())
    await until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get('local')!.slots.active === 1)
    expect((await post(cancel(6), id)).status).toBe(202)
    const text = await within(2500, running)
    expect(text).toMatch(/"isError":true/)
    expect(outcomes).toEqual(['error'])
  })

  it('a prompt asked on another POST stops too', async () => {
    const id = await session()
    const started = Date.now()
    const running = post({ jsonrpc: '2.0', id: 7, method: 'prompts/get', params: { name: 'local__greet', arguments: { ms: '5000' } } }, id).then(answer => answer.text())
    await new Promise(resolve => setTimeout(resolve, 300))
    expect((await post(cancel(7), id)).status).toBe(202)
    expect(await within(2500, running)).toMatch(/"error":\{"code":-32001,"message":"[^"]*cancelled by the client/)
    expect(Date.now() - started).toBeLessThan(3000)
  })
})
