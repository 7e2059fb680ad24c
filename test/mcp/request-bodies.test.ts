import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from 'node:http'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { gatewayClient, referenceServers, until } from './servers.ts'

/** A request body over the SDK's 4 MB bound is refused as the SDK's transport refuses it, without being read whole. */
let proxy: TestProxy

beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': ['body-key'], 'mcp-servers': [referenceServers('/tmp')[0]], mcp: { 'max-result-kb': 8192 } })
  await until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get('everything')!.state === 'up')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

/** POSTs up to `mb` MB in 1 MB chunks without a length (chunked), stopping once the answer comes: the answer, and how much was sent. */
function postChunked(path: string, mb: number, headers: Record<string, string> = {}): Promise<{ status: number; body: string; sentMb: number }> {
  const url = new URL(proxy.url)
  return new Promise((resolve, reject) => {
    let sent = 0
    let answered = false
    const req = request({ host: url.hostname, port: url.port, path, method: 'POST', headers: { authorization: 'Bearer body-key', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, res => {
      answered = true
      let body = ''
      res.on('data', chunk => { body += chunk })
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode!, body, sentMb: sent })
      })
    })
    req.on('error', error => { if (!answered) reject(error) })
    const chunk = Buffer.alloc(1024 * 1024, 'a')
    const write = () => {
      while (!answered && sent < mb) {
        sent++
        if (!req.write(chunk)) return void req.once('drain', write)
      }
      if (!answered) req.end()
    }
    req.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"')
    write()
  })
}

describe('request bodies', () => {
  it('a chunked body over 4 MB is a 413 of the SDK\'s words, answered before the rest is sent', async () => {
    const answer = await postChunked('/mcp', 200)
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).error).toEqual({ code: -32000, message: 'Payload Too Large: Request body must not exceed 4194304 bytes' })
    expect(answer.sentMb).toBeLessThan(64)
  }, 60_000)

  it('the same on the legacy transport\'s message endpoint, for a session that exists', async () => {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js')
    const headers = { authorization: 'Bearer body-key' }
    const transport = new SSEClientTransport(new URL(`${proxy.url}/mcp/sse`), {
      requestInit: { headers },
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers as Record<string, string>, ...headers } }) },
    })
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
    const client = new Client({ name: 'body-test', version: '1' })
    await client.connect(transport)
    const session = (transport as unknown as { _endpoint: URL })._endpoint
    const answer = await postChunked(`${session.pathname}${session.search}`, 200)
    expect(answer.status).toBe(413)
    expect(answer.sentMb).toBeLessThan(64)
    await client.close()
  }, 60_000)

  it('on the legacy transport\'s message endpoint, JSON that is no JSON-RPC message is -32600 in a line; broken JSON -32700', async () => {
    const stream = await fetch(`${proxy.url}/mcp/sse`, { headers: { authorization: 'Bearer body-key', accept: 'text/event-stream' } })
    const reader = stream.body!.getReader()
    const endpoint = /data: (.*)/.exec(Buffer.from((await reader.read()).value!).toString())![1]
    const post = async (body: string) => {
      const answer = await fetch(`${proxy.url}${endpoint}`, { method: 'POST', headers: { authorization: 'Bearer body-key', 'content-type': 'application/json' }, body })
      return { status: answer.status, error: (await answer.json() as { error: { code: number; message: string } }).error }
    }
    for (const body of ['{"x":1}', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', '{"jsonrpc":"1.0","id":1,"method":"ping"}']) {
      const { status, error } = await post(body)
      expect({ body, status, code: error.code }).toEqual({ body, status: 400, code: -32600 })
      expect(error.message.length).toBeLessThan(200)
    }
    expect(await post('{"jsonrpc":')).toMatchObject({ status: 400, error: { code: -32700 } })
    await reader.cancel()
  })

  it('a body within the bound is served as before', async () => {
    const client = await gatewayClient(proxy.url, 'body-key')
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'y'.repeat(3 * 1024 * 1024) } })
    expect(JSON.stringify(echo.content).length).toBeGreaterThan(3 * 1024 * 1024)
    await client.close()
  }, 30_000)
})
