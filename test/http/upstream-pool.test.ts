import { afterAll, beforeAll, expect, it } from 'vitest'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/** An upstream that holds every stream open until `wanted` of them are open at once, then ends them all. */
const wanted = 300
let held: ServerResponse[] = []
let peak = 0
let upstream: Server
let proxy: TestProxy

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}\n\n')
      held.push(res)
      peak = Math.max(peak, held.length)
      if (held.length < wanted) return
      for (const open of held) open.end('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
      held = []
    })
  })
  await new Promise<void>(resolve => upstream.listen(0, '127.0.0.1', resolve))
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'compat-provider': [{ name: 'hold', 'base-url': `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`, models: [{ name: 'm', alias: '' }] }],
  })
})
afterAll(async () => {
  await proxy.close()
  await new Promise(resolve => { upstream.closeAllConnections(); upstream.close(resolve) })
})

it(`holds ${wanted} streams open to one upstream at once: no connection pool queues long streams behind each other`, async () => {
  const agent = new Agent({ connections: wanted, pipelining: 1 })
  const texts = await Promise.all(Array.from({ length: wanted }, async () => {
    const response = await request(`${proxy.url}/v1/chat/completions`, {
      method: 'POST', dispatcher: agent, headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    })
    return response.body.text()
  }))
  await agent.close()
  expect(peak).toBe(wanted)
  expect(texts.every(text => text.includes('[DONE]'))).toBe(true)
}, 30_000)
