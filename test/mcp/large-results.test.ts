import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { gatewayClient, until, localStdioServer } from './servers.ts'

/** A local server's result too large to read fails that call, not the server and the calls beside it. */
let proxy: TestProxy
const local = localStdioServer
const config = (maxResultKb?: number) => ({ 'api-keys': ['large-key'], 'mcp-servers': [local], ...(maxResultKb && { mcp: { 'max-result-kb': maxResultKb } }) })
const server = () => proxy.proxy.kernel.services.mcpGateway!.servers.get('local')!

beforeAll(async () => {
  proxy = await startTestProxy(config())
  await until(() => server().state === 'up')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

describe('a result of a local server larger than the gateway reads (12 MB, one line)', () => {
  it('is an error result of its call; the server keeps running, and a call beside it ends well', async () => {
    const [asking, beside] = await Promise.all([gatewayClient(proxy.url, 'large-key'), gatewayClient(proxy.url, 'large-key')])
    const pid = server().pid
    const slow = beside.callTool({ name: 'local__sleep', arguments: { ms: 4000 } })
    const huge = await asking.callTool({ name: 'local__huge', arguments: { mb: 12 } })
    expect(huge.isError).toBe(true)
    expect(JSON.stringify(huge.content)).toMatch(/MCP server local: .*a message of \d+ bytes, larger than the gateway reads from a local server/)
    expect((await slow).content).toEqual([{ type: 'text', text: 'slept 4000' }])
    expect(server().state).toBe('up')
    expect(server().pid).toBe(pid)
    expect((await asking.callTool({ name: 'local__echo', arguments: { message: 'still here' } })).content).toEqual([{ type: 'text', text: 'still here' }])
    await Promise.all([asking.close(), beside.close()])
  }, 30_000)

  it('is read whole when max-result-kb allows it', async () => {
    await proxy.proxy.kernel.applyConfig(validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...config(12 * 1024) }))
    await until(() => server().state === 'up')
    const client = await gatewayClient(proxy.url, 'large-key')
    const result = await client.callTool({ name: 'local__huge', arguments: { mb: 11 } })
    expect(result.isError).toBeFalsy()
    expect((result.content as Array<{ text: string }>)[0].text.length).toBe(11 * 1024 * 1024)
    await client.close()
  }, 30_000)
})
