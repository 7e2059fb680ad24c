import { afterAll, beforeAll, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

let upstream: MockUpstream
let proxy: TestProxy

beforeAll(async () => {
  upstream = await startMockOpenAI()
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, models: [{ name: 'mock-gpt', alias: 'fast' }, { name: 'other', alias: '' }] }],
    payload: {
      filter: [{ models: [{ name: 'mock-*', protocol: 'proto_chat' }], params: ['user'] }],
      default: [{ models: [{ name: 'mock-gpt' }], params: { temperature: 0.3, 'metadata.source': 'proxy' } }],
      'override-raw': [{ models: [{ name: 'fast' }], params: { stream_options: '{"include_usage":true}' } }],
    },
  })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

const send = (body: Record<string, unknown>) => fetch(`${proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify(body),
})

it('rules change the body the upstream receives, and only for matching models', async () => {
  expect((await send({ model: 'fast', user: 'u1', temperature: 1, messages: [{ role: 'user', content: 'x' }] })).status).toBe(200)
  expect(JSON.parse(upstream.requests.at(-1)!.body)).toEqual({
    model: 'mock-gpt', temperature: 1, metadata: { source: 'proxy' }, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }],
  })
  expect((await send({ model: 'other', user: 'u2', messages: [{ role: 'user', content: 'x' }] })).status).toBe(200)
  expect(JSON.parse(upstream.requests.at(-1)!.body)).toEqual({ model: 'other', user: 'u2', messages: [{ role: 'user', content: 'x' }] })
})
