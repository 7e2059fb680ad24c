import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'

/**
 * `route-resolve` hands listeners the model index's own candidate list. A plugin that narrows it in
 * place for one request (here: a client asking for "no candidates") used to narrow it for every later
 * request too, until the credentials changed. The list is frozen: that plugin fails its own request,
 * and the others are served as before.
 */
const narrowing = defineProxyPlugin({
  name: 'narrowing',
  setup(kernel) {
    kernel.hooks.hook('route-resolve', (ctx) => {
      if (ctx.request.event.req.headers.get('x-narrow') === 'in-place') ctx.candidates.length = 0
      if (ctx.request.event.req.headers.get('x-narrow') === 'copy') ctx.candidates = ctx.candidates.filter(() => false)
    })
  },
})

let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'a' }, { 'api-key': 'b' }], models: [{ name: 'gpt', alias: '' }] }],
  }, [narrowing])
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const ask = (narrow?: string) => fetch(`${proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json', ...(narrow && { 'x-narrow': narrow }) },
  body: JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] }),
})

describe('a route-resolve listener that changes the candidate list in place', () => {
  it('narrows its own request only (the list is the request\'s copy); later requests still see every candidate', async () => {
    expect((await ask('in-place')).status).toBe(404)
    for (let i = 0; i < 2; i++) expect((await ask()).status).toBe(200)
    expect(proxy.proxy.kernel.models.get('gpt')).toHaveLength(2)
  })

  it('narrowing by assigning a new list is the way: that request only', async () => {
    expect((await ask('copy')).status).toBe(404)
    expect((await ask()).status).toBe(200)
  })
})
