import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { until, stdioServerPath } from './servers.ts'

/** What a server says outside its results (listings, progress, its questions) is masked like its results. */
const secret = 'env-secret-0123456789'
let proxy: TestProxy
const local = { name: 'local', command: process.execPath, args: [stdioServerPath], env: { QUOTE: secret } }

beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': ['quote-key'], 'mcp-servers': [local] })
  await until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get('local')!.state === 'up')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

describe('a local server quoting its env', () => {
  it('has it masked in its tool and prompt listings, its progress notices and its questions to the client', async () => {
    const client = new Client({ name: 'quote-test', version: '1' }, { capabilities: { elicitation: {} } })
    const heard: unknown[] = []
    client.setRequestHandler(ElicitRequestSchema, request => {
      heard.push(request.params)
      return { action: 'accept', content: {} }
    })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { authorization: 'Bearer quote-key' } } }))
    const { tools } = await client.listTools()
    const { prompts } = await client.listPrompts()
    await client.callTool({ name: 'local__sleep', arguments: { ms: 30, steps: 2 } }, undefined, { onprogress: notice => heard.push(notice) })
    expect((await client.callTool({ name: 'local__ask', arguments: {} })).content).toEqual([{ type: 'text', text: 'accept' }])
    const said = JSON.stringify([tools, prompts, heard])
    expect(said).toContain('env-...6789')
    expect(said).not.toContain('0123456789')
    // The names stay whole: they are what a client calls.
    expect(tools.map(tool => tool.name)).toContain('local__echo')
    expect(heard).toHaveLength(3)
    await client.close()
  })
})
