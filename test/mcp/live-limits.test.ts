import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileURLToPath } from 'node:url'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { gatewayClient, until } from './servers.ts'

/** A live change of a server's `max-concurrent` holds at once, on the connection it keeps. */
let proxy: TestProxy
const local = (maxConcurrent: number) => ({ name: 'local', command: process.execPath, args: [fileURLToPath(new URL('./stdio-server.mjs', import.meta.url))], 'max-concurrent': maxConcurrent })
const config = (maxConcurrent: number) => ({ 'api-keys': ['limit-key'], 'mcp-servers': [local(maxConcurrent)] })
const server = () => proxy.proxy.kernel.services.mcpGateway!.servers.get('local')!

beforeAll(async () => {
  proxy = await startTestProxy(config(1))
  await until(() => server().state === 'up')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

describe('max-concurrent changed live', () => {
  it('raised from 1 to 2: a second call runs beside the first at once, on the same process', async () => {
    const [first, second] = await Promise.all([gatewayClient(proxy.url, 'limit-key'), gatewayClient(proxy.url, 'limit-key')])
    const pid = server().pid
    const long = first.callTool({ name: 'local__sleep', arguments: { ms: 4000 } })
    await until(() => server().slots.active === 1)
    await proxy.proxy.kernel.applyConfig(validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...config(2) }))
    const started = Date.now()
    expect((await second.callTool({ name: 'local__sleep', arguments: { ms: 100 } })).content).toEqual([{ type: 'text', text: 'slept 100' }])
    expect(Date.now() - started).toBeLessThan(2500)
    expect(server().pid).toBe(pid)
    expect((await long).content).toEqual([{ type: 'text', text: 'slept 4000' }])
    await Promise.all([first.close(), second.close()])
  }, 30_000)
})
