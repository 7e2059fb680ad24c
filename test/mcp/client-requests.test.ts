import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, type ClientCapabilities, type CreateMessageRequest, type ElicitRequest, type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { referenceServers, until } from './servers.ts'
import { askingServer } from './asking-server.ts'

/**
 * Requests of a fronted server to its client (elicitation, sampling, roots) through the gateway, to a
 * real SDK client: in front of the reference `everything` server (stdio) and of `asking`, a 2025-era
 * server over Streamable HTTP whose tools ask in the call's answer stream.
 */
let proxy: TestProxy
let front: MockUpstream
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-client-requests-'))
  front = await startMockUpstream(askingServer())
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'client-keys': [{ key: 'no-asking-key', name: 'no-asking' }],
    mcp: { access: { 'no-asking': { 'deny-servers': ['asking'] }, '*': {} } },
    'mcp-servers': [referenceServers(dir)[0], { name: 'asking', url: `${front.url}/mcp`, 'timeout-seconds': 5 }],
  })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'))
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await front?.close()
  rmSync(dir, { recursive: true, force: true })
})

interface Handlers {
  elicit?(request: ElicitRequest): ElicitResult | Promise<ElicitResult>
  sample?(request: CreateMessageRequest): Promise<{ role: 'assistant'; model: string; content: { type: 'text'; text: string } }> | { role: 'assistant'; model: string; content: { type: 'text'; text: string } }
  roots?: Array<{ uri: string; name?: string }>
}

/** A client declaring (and answering) what `handlers` has, over Streamable HTTP or the legacy SSE transport. */
async function asker(handlers: Handlers, options: { key?: string; sse?: boolean } = {}): Promise<Client> {
  const capabilities: ClientCapabilities = {
    ...(handlers.elicit && { elicitation: {} }), ...(handlers.sample && { sampling: {} }), ...(handlers.roots && { roots: {} }),
  }
  const client = new Client({ name: 'asker', version: '1' }, { capabilities })
  if (handlers.elicit) client.setRequestHandler(ElicitRequestSchema, request => handlers.elicit!(request))
  if (handlers.sample) client.setRequestHandler(CreateMessageRequestSchema, request => handlers.sample!(request))
  if (handlers.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: handlers.roots! }))
  const headers = { authorization: `Bearer ${options.key ?? 'k'}` }
  await client.connect(options.sse
    ? new SSEClientTransport(new URL(`${proxy.url}/mcp/sse`), {
      requestInit: { headers },
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers as Record<string, string>, ...headers } }) },
    })
    : new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers } }))
  return client
}

const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]!.text)
const waiting = () => proxy.proxy.kernel.services.mcpGateway!

describe('server-to-client requests, 2025 sessions', () => {
  it('an elicitation of the reference server reaches the client, whose accepting answer is the server\'s', async () => {
    const seen: ElicitRequest['params'][] = []
    const client = await asker({ elicit: request => { seen.push(request.params); return { action: 'accept', content: { name: 'Ada', check: true } } } })
    try {
      const result = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} })
      expect(seen).toHaveLength(1)
      expect(seen[0]!.message).toBe('Please provide inputs for the following fields:')
      expect(result.isError).toBeFalsy()
      expect(JSON.stringify(result.content)).toContain('Ada')
    } finally {
      await client.close()
    }
  })

  it('a declined elicitation is the server\'s answer too', async () => {
    const client = await asker({ elicit: () => ({ action: 'decline' }) })
    try {
      const result = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} })
      expect(JSON.stringify(result.content)).toMatch(/declined/i)
    } finally {
      await client.close()
    }
  })

  it('a sampling request reaches the client; its message goes back to the server', async () => {
    const client = await asker({ sample: request => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: `sampled: ${(request.params.messages[0]!.content as { text: string }).text}` } }) })
    try {
      const result = await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 5 } })
      expect(text(result)).toContain('sampled: Resource trigger-sampling-request context: hi')
      expect(text(result)).toContain('test-model')
    } finally {
      await client.close()
    }
  })

  it('roots/list during a call is answered with the client\'s roots', async () => {
    const client = await asker({ roots: [{ uri: 'file:///work/project', name: 'project' }] })
    try {
      const result = await client.callTool({ name: 'asking__roots', arguments: {} })
      expect(JSON.parse(text(result))).toEqual({ roots: [{ uri: 'file:///work/project', name: 'project' }] })
    } finally {
      await client.close()
    }
  })

  it('a client that did not declare elicitation: the server\'s request gets "method not found" at once', async () => {
    // The gateway declares elicitation toward its servers, so the reference server offers its tool.
    const client = await asker({ sample: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: '' } }) })
    try {
      const started = Date.now()
      const result = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} })
      expect(result.isError).toBe(true)
      expect(JSON.stringify(result.content)).toMatch(/-32601|Method not found/)
      expect(Date.now() - started).toBeLessThan(2000)
    } finally {
      await client.close()
    }
  })

  it('a client that never answers: the server\'s request ends with the call\'s timeout, nothing stays waiting', async () => {
    const client = await asker({ elicit: () => new Promise(() => {}) })
    try {
      const result = await client.callTool({ name: 'asking__ask', arguments: {} })
      expect(result.isError).toBe(true)
      expect(text(result)).toContain('did not answer within 5 s')
      expect(waiting().answers.waiting).toBe(0)
    } finally {
      await client.close()
    }
  }, 15_000)

  it('two clients at once: each is asked only its own call\'s question', async () => {
    const asked: Record<string, string[]> = { a: [], b: [] }
    const answering = (who: 'a' | 'b') => ({
      elicit: async (request: ElicitRequest) => {
        asked[who].push(request.params.message)
        // Both calls are running on the server when either answers.
        await new Promise(resolve => setTimeout(resolve, 200))
        return { action: 'accept' as const, content: { name: who.toUpperCase() } }
      },
    })
    const a = await asker(answering('a'))
    const b = await asker(answering('b'))
    try {
      const [ra, rb] = await Promise.all([a.callTool({ name: 'asking__ask', arguments: { who: 'a' } }), b.callTool({ name: 'asking__ask', arguments: { who: 'b' } })])
      expect(asked).toEqual({ a: ['Name for a?'], b: ['Name for b?'] })
      expect(JSON.parse(text(ra))).toEqual({ action: 'accept', content: { name: 'A' } })
      expect(JSON.parse(text(rb))).toEqual({ action: 'accept', content: { name: 'B' } })
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('a local server, requests of two clients on it: nothing tells whose its question is, so it is refused and nobody is asked', async () => {
    const asked: string[] = []
    const a = await asker({ elicit: () => { asked.push('a'); return { action: 'decline' } } })
    const b = await asker({ elicit: () => { asked.push('b'); return { action: 'decline' } } })
    try {
      const long = a.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 1 } })
      await new Promise(resolve => setTimeout(resolve, 200))
      const result = await b.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} })
      await long
      expect(result.isError).toBe(true)
      expect(JSON.stringify(result.content)).toContain('several clients')
      expect(asked).toEqual([])
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('a call with no client to ask (the proxy\'s tool loop) still owns its server\'s question: another client is not asked', async () => {
    const asked: string[] = []
    const a = await asker({ elicit: () => { asked.push('a'); return { action: 'decline' } } })
    try {
      const long = a.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 1 } })
      await new Promise(resolve => setTimeout(resolve, 200))
      const everyone = { name: '*', server: () => true, tool: () => true }
      const result = await waiting().callTool({ keyId: 'loop', access: everyone }, 'everything__trigger-elicitation-request', {})
      await long
      expect(result.isError).toBe(true)
      expect(asked).toEqual([])
    } finally {
      await a.close()
    }
  })

  it('a client that disconnects while asked: the call ends, nothing stays waiting', async () => {
    let asked!: () => void
    const reached = new Promise<void>(resolve => { asked = resolve })
    const client = await asker({ elicit: () => { asked(); return new Promise(() => {}) } })
    const call = client.callTool({ name: 'asking__ask', arguments: {} }).catch(error => error)
    await reached
    await client.close()
    await call
    await until(() => waiting().servers.get('asking')!.slots.active === 0)
    expect(waiting().answers.waiting).toBe(0)
    // The server got an error for its request: the next call is served as usual.
    const next = await asker({ elicit: () => ({ action: 'decline' }) })
    try {
      expect(JSON.parse(text(await next.callTool({ name: 'asking__ask', arguments: {} })))).toEqual({ action: 'decline' })
    } finally {
      await next.close()
    }
  })

  it('an answer for an id the gateway never sent is refused', async () => {
    const client = await asker({ elicit: () => ({ action: 'decline' }) })
    const session = (client.transport as StreamableHTTPClientTransport).sessionId!
    try {
      const post = (id: unknown) => fetch(`${proxy.url}/mcp`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id, result: { action: 'accept', content: {} } }),
      })
      expect((await post(7)).status).toBe(400)
      expect((await post('gw-somebody-else-1')).status).toBe(400)
    } finally {
      await client.close()
    }
  })

  it('a key sees only the requests of the servers it may use, during its own calls', async () => {
    const asked: string[] = []
    const client = await asker({ elicit: request => { asked.push(request.params.message); return { action: 'decline' } } }, { key: 'no-asking-key' })
    const other = await asker({ elicit: () => ({ action: 'accept', content: { name: 'other' } }) })
    try {
      await expect(client.callTool({ name: 'asking__ask', arguments: {} })).rejects.toThrow(/unknown tool/)
      await other.callTool({ name: 'asking__ask', arguments: {} })
      expect(asked).toEqual([])
      await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} })
      expect(asked).toEqual(['Please provide inputs for the following fields:'])
    } finally {
      await client.close()
      await other.close()
    }
  })
})

describe('server-to-client requests, legacy SSE transport', () => {
  it('an elicitation reaches a client of the legacy transport on its stream; its answer goes back', async () => {
    const client = await asker({ elicit: request => ({ action: 'accept', content: { name: request.params.message } }) }, { sse: true })
    try {
      const result = await client.callTool({ name: 'asking__ask', arguments: { who: 'sse' } })
      expect(JSON.parse(text(result))).toEqual({ action: 'accept', content: { name: 'Name for sse?' } })
    } finally {
      await client.close()
    }
  })
})
