import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { referenceServers, until } from './servers.ts'
import type { ToolCallRecord } from '../../plugins/mcp/gateway.ts'

/** Two instances on one Redis serve one MCP session, its requests landing on each in turn. */
const base = `proxy-mcp-fleet-${process.pid}-${Date.now()}`
let dir: string
const proxies: TestProxy[] = []
const calls: ToolCallRecord[][] = [[], []]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-fleet-'))
  for (const i of [0, 1]) {
    const proxy = await startTestProxy({
      'api-keys': ['fleet-key', 'rate-key', 'stream-key', 'answer-key'],
      'mcp-servers': referenceServers(dir).filter(server => server.name !== 'fs'),
      mcp: { access: { '*': { 'calls-per-minute': 6 } } },
    }, [], await createProxyStorage({ driver: 'redis', base }))
    proxy.proxy.kernel.services.mcpToolCall!.push(record => calls[i].push(record))
    proxies.push(proxy)
  }
  await until(() => proxies.every(proxy => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up')))
}, 60_000)

afterAll(async () => {
  await Promise.all(proxies.map(proxy => proxy.close()))
  const cleanup = await createProxyStorage({ driver: 'redis', base })
  await cleanup.clear()
  await cleanup.dispose()
  rmSync(dir, { recursive: true, force: true })
})

/** The SDK's client whose HTTP requests go to the two instances alternately. */
function alternatingClient(key = 'fleet-key'): { client: Client; landed: string[] } {
  const landed: string[] = []
  let turn = 0
  let callTurn = 0
  const transport = new StreamableHTTPClientTransport(new URL(`${proxies[0].url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (input, init) => {
      // Tool calls alternate on their own count: the SDK's other requests (its GET stream, notifications)
      // come at times of their own, and counting them too could send every call to one instance.
      const isCall = typeof init?.body === 'string' && init.body.includes('"tools/call"')
      const target = proxies[(isCall ? callTurn++ : turn++) % 2].url
      landed.push(target)
      return fetch(String(input).replace(proxies[0].url, target), init)
    },
  })
  const client = new Client({ name: 'fleet-test', version: '1' })
  void client.connect(transport)
  return { client, landed }
}

describe('one MCP session on two instances', () => {
  it('serves list and call whichever instance a request reaches', async () => {
    const { client, landed } = alternatingClient()
    await until(() => client.getServerVersion() !== undefined)
    for (let i = 0; i < 4; i++) {
      const echo = await client.callTool({ name: 'everything__echo', arguments: { message: `turn ${i}` } })
      expect(JSON.stringify(echo.content)).toContain(`turn ${i}`)
      expect((await client.listTools()).tools.length).toBeGreaterThan(5)
    }
    expect(new Set(landed).size).toBe(2)
    expect(calls[0].length).toBeGreaterThan(0)
    expect(calls[1].length).toBeGreaterThan(0)
    await client.close()
  })

  it('a cancel reaching the other instance stops the call where it runs', async () => {
    const { client } = alternatingClient()
    await until(() => client.getServerVersion() !== undefined)
    const before = calls[0].length + calls[1].length
    const abort = new AbortController()
    const started = Date.now()
    const call = client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 8, steps: 8 } }, undefined, { signal: abort.signal })
    setTimeout(() => abort.abort('enough'), 500)
    await expect(call).rejects.toThrow()
    await until(() => calls[0].length + calls[1].length > before, 5000)
    const record = [...calls[0], ...calls[1]].find(call => call.tool === 'trigger-long-running-operation')!
    expect(record.outcome).toBe('error')
    expect(Date.now() - started).toBeLessThan(6000)
    await client.close()
  })

  it('the GET stream on one instance hears the log notices and resource updates of the connections of the other, where the requests went', async () => {
    const landed: string[] = []
    const transport = new StreamableHTTPClientTransport(new URL(`${proxies[0].url}/mcp`), {
      requestInit: { headers: { authorization: 'Bearer stream-key' } },
      fetch: (input, init) => {
        const target = proxies[init?.method === 'GET' ? 1 : 0].url
        landed.push(`${init?.method} ${target}`)
        return fetch(String(input).replace(proxies[0].url, target), init)
      },
    })
    const client = new Client({ name: 'fleet-stream-test', version: '1' })
    const notices: unknown[] = []
    const updated: string[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, notification => { notices.push(notification.params) })
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, notification => { updated.push(notification.params.uri) })
    await client.connect(transport)
    await until(() => landed.includes(`GET ${proxies[1].url}`))
    await new Promise(resolve => setTimeout(resolve, 200))
    const uri = 'everything+demo://resource/static/document/architecture.md'
    try {
      await client.setLoggingLevel('debug')
      await client.subscribeResource({ uri })
      // Both toggles act on instance 0's reference server: it logs and announces the resource every 5 s.
      for (const name of ['everything__toggle-simulated-logging', 'everything__toggle-subscriber-updates']) await client.callTool({ name, arguments: {} })
      // Notices so far came during requests (in their answers); the next comes while none runs.
      const duringRequests = notices.length
      try {
        await until(() => updated.length > 0 && notices.length > duringRequests, 15_000)
      } finally {
        for (const name of ['everything__toggle-simulated-logging', 'everything__toggle-subscriber-updates']) await client.callTool({ name, arguments: {} })
      }
      expect(updated[0]).toBe(uri)
      expect(notices.at(-1)).toMatchObject({ logger: 'everything' })
      expect(landed.filter(line => line.startsWith('POST')).every(line => line.endsWith(proxies[0].url))).toBe(true)
    } finally {
      await client.close()
    }
  }, 30_000)

  it('a client\'s answer to a server\'s request, POSTed to the other instance, reaches the call waiting for it', async () => {
    const landed: string[] = []
    const transport = new StreamableHTTPClientTransport(new URL(`${proxies[0].url}/mcp`), {
      requestInit: { headers: { authorization: 'Bearer answer-key' } },
      fetch: (input, init) => {
        // Answers (a JSON-RPC result for a gateway id) go to instance 1, everything else to instance 0.
        const answer = typeof init?.body === 'string' && init.body.includes('"gw-') && init.body.includes('"result"')
        const target = proxies[answer ? 1 : 0].url
        landed.push(`${answer ? 'answer' : 'other'} ${target}`)
        return fetch(String(input).replace(proxies[0].url, target), init)
      },
    })
    const client = new Client({ name: 'fleet-answer-test', version: '1' }, { capabilities: { elicitation: {} } })
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Fleet' } }))
    await client.connect(transport)
    try {
      const result = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} })
      expect(JSON.stringify(result.content)).toContain('Fleet')
      expect(landed).toContain(`answer ${proxies[1].url}`)
    } finally {
      await client.close()
    }
  })

  it('a key\'s tool-call rate is the fleet\'s, not each instance\'s', async () => {
    const { client } = alternatingClient('rate-key')
    await until(() => client.getServerVersion() !== undefined)
    const outcomes: string[] = []
    for (let i = 0; i < 8; i++) {
      outcomes.push(await client.callTool({ name: 'everything__echo', arguments: { message: 'x' } }).then(() => 'ok', (error: Error) => /rate/.test(error.message) ? 'rate' : error.message))
    }
    // Six a minute over both instances together (counted per instance, four calls each would all pass).
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'rate', 'rate'])
    await client.close()
  })
})
