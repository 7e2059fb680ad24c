import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { validateConfig } from '../../core/config/validate.ts'
import { gatewayClient, until, stdioServerPath } from './servers.ts'

/** A live change that keeps a server's connection (limits, disabled tools, access) holds at once, and open sessions hear of what it changes in their lists. */
let proxy: TestProxy
const local = (maxConcurrent: number, more: object = {}) => ({ name: 'local', command: process.execPath, args: [stdioServerPath], 'max-concurrent': maxConcurrent, ...more })
const config = (maxConcurrent: number, more: object = {}, mcp: object = {}) => ({ 'api-keys': ['limit-key'], 'mcp-servers': [local(maxConcurrent, more)], mcp })
const apply = (raw: object) => proxy.proxy.kernel.applyConfig(validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...raw }))
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
    await apply(config(2))
    const started = Date.now()
    expect((await second.callTool({ name: 'local__sleep', arguments: { ms: 100 } })).content).toEqual([{ type: 'text', text: 'slept 100' }])
    expect(Date.now() - started).toBeLessThan(2500)
    expect(server().pid).toBe(pid)
    expect((await long).content).toEqual([{ type: 'text', text: 'slept 4000' }])
    await Promise.all([first.close(), second.close()])
  }, 30_000)

  it('a tool disabled, then access narrowed: open sessions are told their tool list changed, and the list is new', async () => {
    const client = await gatewayClient(proxy.url, 'limit-key')
    let notices = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { notices++ })
    await new Promise(resolve => setTimeout(resolve, 300)) // the client's standing stream opens after initialize
    const names = async () => (await client.listTools()).tools.map(tool => tool.name).sort()
    expect(await names()).toEqual(['local__ask', 'local__echo', 'local__huge', 'local__listed', 'local__sleep', 'local__storm'])
    await apply(config(2, { 'disabled-tools': ['huge'] }))
    await until(() => notices === 1, 5000)
    expect(await names()).toEqual(['local__ask', 'local__echo', 'local__listed', 'local__sleep', 'local__storm'])
    await apply(config(2, { 'disabled-tools': ['huge'] }, { access: { '*': { tools: ['local__echo'] } } }))
    await until(() => notices === 2, 5000)
    expect(await names()).toEqual(['local__echo'])
    // A change that changes no list tells nobody.
    await apply(config(3, { 'disabled-tools': ['huge'] }, { access: { '*': { tools: ['local__echo'] } } }))
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(notices).toBe(2)
    await client.close()
  }, 30_000)
})
