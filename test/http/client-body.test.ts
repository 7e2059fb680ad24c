import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect } from 'node:net'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

let upstream: MockUpstream
let proxy: TestProxy

beforeAll(async () => {
  upstream = await startMockOpenAI()
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, models: [{ name: 'same', alias: '' }, { name: 'upstream-name', alias: 'renamed' }, { name: 'ruled', alias: '' }] }],
    payload: { override: [{ models: [{ name: 'ruled' }], params: { temperature: 0.5 } }] },
  })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

const post = (text: string) => fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: text })

// Spacing, key order, `1.0`, escapes and a field the proxy does not know: JSON.stringify would change each.
const oddly = (model: string) => `{\n  "messages" : [ {"role":"user","content":"caf\\u00e9 \\/ \\"q\\""} ],\n  "temperature": 1.0,\n  "x_vendor_field": {"nested": [1, 2.50]},\n  "model": "${model}"\n}\n`

describe('the client body on the same-format path', () => {
  it('goes upstream byte for byte when the model name and every hook leave it alone', async () => {
    const response = await post(oddly('same'))
    expect(response.status).toBe(200)
    await response.text()
    expect(upstream.requests.at(-1)!.body).toBe(oddly('same'))
  })

  it('is re-serialized with the upstream model name when the client used an alias', async () => {
    await (await post(oddly('renamed'))).text()
    const sent = upstream.requests.at(-1)!.body
    expect(sent).not.toBe(oddly('renamed'))
    expect(JSON.parse(sent)).toEqual({ ...JSON.parse(oddly('renamed')), model: 'upstream-name' })
  })

  it('is re-serialized when it names the model twice: the upstream sees the model that was routed', async () => {
    const twice = '{"model":"renamed","messages":[{"role":"user","content":"x"}],"model":"same"}'
    await (await post(twice)).text()
    const sent = upstream.requests.at(-1)!.body
    expect(sent).toBe(JSON.stringify({ model: 'same', messages: [{ role: 'user', content: 'x' }] }))
  })

  it('carries what a payload rule changed, not the client bytes', async () => {
    await (await post(oddly('ruled'))).text()
    expect(JSON.parse(upstream.requests.at(-1)!.body)).toEqual({ ...JSON.parse(oddly('ruled')), temperature: 0.5 })
  })

  it('a client that hangs up halfway through its body costs nothing: no upstream call, the server keeps serving', async () => {
    const before = upstream.requests.length
    const { port } = new URL(proxy.url)
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer k\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"model":"same","messages":[`)
        setTimeout(() => { socket.destroy(); resolve() }, 50)
      })
      socket.on('error', reject)
    })
    await new Promise(resolve => setTimeout(resolve, 50))
    expect(upstream.requests.length).toBe(before)
    const response = await post(oddly('same'))
    expect(response.status).toBe(200)
    await response.text()
  })
})
