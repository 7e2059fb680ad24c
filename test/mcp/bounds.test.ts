import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { gatewayClient, referenceServers, until } from './servers.ts'

/** A server's failure is an MCP error to the client, never a crash or a hang. */
let proxy: TestProxy
let dir: string
const gateway = () => proxy.proxy.kernel.services.mcpGateway!
const everything = () => referenceServers(dir)[0]
const config = (extra: Array<Record<string, unknown>> = []) => ({
  'api-keys': ['bounds-key'],
  'mcp-servers': [
    { ...everything(), name: 'slow', 'timeout-seconds': 30 },
    { ...everything(), name: 'quick', 'timeout-seconds': 1 },
    { name: 'broken', command: process.execPath, args: ['-e', 'process.stderr.write("no such database\\n"); process.exit(3)'] },
    ...extra,
  ],
  mcp: { 'max-concurrent-per-key': 1, 'max-result-kb': 1 },
})

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-bounds-'))
  proxy = await startTestProxy(config())
  await until(() => gateway().servers.get('slow')!.state === 'up' && gateway().servers.get('quick')!.state === 'up')
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('bounds', () => {
  it('a call past its timeout is an error result, and the key\'s slot is free again', async () => {
    const client = await gatewayClient(proxy.url, 'bounds-key')
    const late = await client.callTool({ name: 'quick__trigger-long-running-operation', arguments: { duration: 3, steps: 3 } })
    expect(late.isError).toBe(true)
    expect(JSON.stringify(late.content)).toMatch(/did not answer within 1 s/)
    const echo = await client.callTool({ name: 'quick__echo', arguments: { message: 'free again' } })
    expect(JSON.stringify(echo.content)).toContain('free again')
    await client.close()
  })

  it('a key over its concurrent calls waits, up to the call\'s timeout', async () => {
    const client = await gatewayClient(proxy.url, 'bounds-key')
    const long = client.callTool({ name: 'slow__trigger-long-running-operation', arguments: { duration: 3, steps: 3 } })
    await new Promise(resolve => setTimeout(resolve, 300))
    const waited = await client.callTool({ name: 'quick__echo', arguments: { message: 'x' } })
    expect(waited.isError).toBe(true)
    expect(JSON.stringify(waited.content)).toMatch(/did not answer within 1 s/)
    expect((await long).isError).toBeFalsy()
    await client.close()
  })

  it('a result over the size cap is replaced by an error result', async () => {
    const client = await gatewayClient(proxy.url, 'bounds-key')
    const big = await client.callTool({ name: 'quick__echo', arguments: { message: 'x'.repeat(2000) } })
    expect(big.isError).toBe(true)
    expect(JSON.stringify(big.content)).toMatch(/larger than the gateway allows/)
    await client.close()
  })

  it('a server that dies is marked down, its tools leave the list, and it is restarted', async () => {
    const broken = gateway().servers.get('broken')!
    await until(() => broken.failures >= 1 && broken.error !== undefined)
    expect(broken.state).not.toBe('up')
    expect(broken.error).toMatch(/no such database/)
    const slow = gateway().servers.get('slow')!
    const pid = slow.pid!
    process.kill(pid, 'SIGKILL')
    await until(() => slow.state !== 'up' || slow.pid !== pid, 5000)
    const client = await gatewayClient(proxy.url, 'bounds-key')
    await until(() => slow.state === 'up' && slow.pid !== pid, 15_000)
    const echo = await client.callTool({ name: 'slow__echo', arguments: { message: 'back' } })
    expect(JSON.stringify(echo.content)).toContain('back')
    await client.close()
  })

  it('a live config change adds a server and tells open sessions their tool list changed', async () => {
    const client = await gatewayClient(proxy.url, 'bounds-key')
    let changed = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed++ })
    await new Promise(resolve => setTimeout(resolve, 300)) // the client's standalone stream opens after initialize
    await proxy.proxy.kernel.applyConfig(validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...config([{ ...everything(), name: 'added' }]) }))
    await until(() => changed > 0, 15_000)
    await until(async () => (await client.listTools()).tools.some(tool => tool.name === 'added__echo'), 15_000)
    await client.close()
  })
})
