import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'

/**
 * A plugin whose listeners leave garbage on the context (headers no answer may carry, a replaced or
 * frozen header object, a stream that is no stream) or never settle. The request they decorate still
 * gets the upstream's answer whole (docs/hooks.md); a deciding listener that hangs fails after
 * `timeouts.hook-seconds`, and other requests go on meanwhile.
 */
const hostile = new Proxy({}, { ownKeys() { throw new Error('trap') }, get() { throw new Error('trap') } })
const never = () => new Promise<void>(() => {})
const beforeResponse: Record<string, (ctx: any) => void | Promise<void>> = {
  'header-newline': (ctx) => { ctx.responseHeaders['x-bad'] = 'a\r\nx-injected: 1' },
  'header-name': (ctx) => { ctx.responseHeaders['bad name'] = 'v' },
  'header-object': (ctx) => { ctx.responseHeaders['x-bad'] = { a: 1 } },
  'content-length': (ctx) => { ctx.responseHeaders['content-length'] = '3' },
  'headers-null': (ctx) => { ctx.responseHeaders = null },
  'headers-frozen': (ctx) => { ctx.responseHeaders['x-kept'] = 'yes'; Object.freeze(ctx.responseHeaders) },
  'headers-hostile': (ctx) => { ctx.responseHeaders = hostile },
  'stream-number': (ctx) => { ctx.stream = 42 },
  'hang': never,
}
const beforeUpstream: Record<string, (ctx: any) => void | Promise<void>> = {
  'upstream-url': (ctx) => { ctx.http.url = 42 },
  'upstream-header-newline': (ctx) => { ctx.http.headers['x-bad'] = 'a\r\nx-injected: 1' },
  'upstream-header-object': (ctx) => { ctx.http.headers['x-bad'] = { a: 1 } },
  'upstream-proxy-url': (ctx) => { ctx.http.proxyUrl = 'not a url' },
}
const plugin = defineProxyPlugin({
  name: 'garbage',
  setup(kernel) {
    kernel.hooks.hook('before-response', ctx => beforeResponse[ctx.request.model]?.(ctx))
    kernel.hooks.hook('before-upstream', ctx => beforeUpstream[ctx.request.model]?.(ctx))
    // An upstream 404 (a path the mock does not serve), then a retry with a candidate that is no candidate.
    kernel.hooks.hook('before-upstream', (ctx) => { if (ctx.request.model === 'retry-garbage') ctx.http.url += '-nowhere' })
    kernel.hooks.hook('attempt-result', (ctx) => {
      if (ctx.request.model === 'retry-garbage' && ctx.attempt === 0) Object.assign(ctx, { action: 'retry', retryWith: {} })
    })
    kernel.hooks.hook('after-response', ctx => ctx.request.model === 'after-hang' ? never() : undefined)
    kernel.hooks.hook('route-resolve', ctx => ctx.request.model === 'route-hang' ? never() : undefined)
    kernel.hooks.hook('route-resolve', (ctx) => {
      if (ctx.request.model === 'route-error-200') ctx.error = { status: 200, message: 'not an error' }
      if (ctx.request.model === 'route-candidates') ctx.candidates = [{} as never]
      // A refusal from a plugin's own copy of ProxyError: the bus passes it on by its name.
      if (ctx.request.model === 'route-lookalike') throw Object.assign(new Error('over budget'), { name: 'ProxyError', status: 429, type: 'rate_limit_error', code: 'budget' })
    })
  },
})

const models = [...Object.keys(beforeResponse), ...Object.keys(beforeUpstream), 'after-hang', 'route-hang', 'route-error-200', 'route-candidates', 'route-lookalike', 'retry-garbage', 'fine']
let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  proxy = await startTestProxy({
    'api-keys': ['k'], timeouts: { 'hook-seconds': 1 },
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: models.map(name => ({ name, alias: '' })) }],
  }, [plugin])
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const ask = (model: string, stream: boolean) => fetch(`${proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
  body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
})

/** The text of a chat completions stream, its deltas joined. */
const streamedText = (sse: string) => sse.split('\n').filter(line => line.startsWith('data: {')).map(line => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? '').join('')

describe('before-response listeners that leave garbage', () => {
  it.each(Object.keys(beforeResponse).flatMap(model => [[model, false], [model, true]] as const))('%s (stream %s): the whole answer, without the garbage', async (model, stream) => {
    const response = await ask(model, stream)
    const text = await response.text()
    expect(response.status).toBe(200)
    expect(stream ? streamedText(text) : JSON.parse(text).choices[0].message.content).toBe('Hello from the playground mock upstream. You said: hi')
    if (stream) expect(text.trimEnd().endsWith('[DONE]')).toBe(true)
    expect(response.headers.get('x-bad')).toBeNull()
    expect(response.headers.get('x-injected')).toBeNull()
    if (model === 'headers-frozen') expect(response.headers.get('x-kept')).toBe('yes')
  })
})

describe('before-upstream listeners that leave a request that cannot be sent', () => {
  it.each(Object.keys(beforeUpstream))('%s: the plugin\'s 500 in the client\'s format, not a 502 blaming the upstream', async (model) => {
    const sent = upstream.requests.length
    const response = await ask(model, false)
    expect(response.status).toBe(500)
    expect((await response.json()).error).toMatchObject({ code: 'plugin_hook_failed', message: expect.stringContaining('the before-upstream hooks left an upstream request that cannot be sent') })
    expect(upstream.requests.length).toBe(sent)
  })
})

describe('route-resolve listeners that leave garbage', () => {
  // Before: a 200 carrying an error body; candidates that crashed the routing plugin, which got the blame.
  it.each([['route-error-200', 'an error that is no error'], ['route-candidates', 'candidates that are no list of candidates']])('%s: the plugins\' 500 saying what', async (model, what) => {
    const response = await ask(model, false)
    expect(response.status).toBe(500)
    expect((await response.json()).error).toMatchObject({ code: 'plugin_hook_failed', message: expect.stringContaining(`the route-resolve hooks left ${what}`) })
  })
})

describe('a refusal thrown as a ProxyError look-alike', () => {
  it('reaches the client with its status and message, as the bus passes it on (not a bare 500)', async () => {
    const response = await ask('route-lookalike', false)
    expect(response.status).toBe(429)
    expect((await response.json()).error).toMatchObject({ message: 'over budget', type: 'rate_limit_error', code: 'budget' })
  })
})

describe('an attempt-result listener that asks for a retry with garbage', () => {
  it('ignored, as a failed observer is: the kernel\'s own pick (none left here), the upstream\'s error, not an internal 500', async () => {
    const response = await ask('retry-garbage', false)
    expect(response.status).toBe(404)
    expect((await response.json()).error.message).not.toBe('internal server error')
  })
})

describe('listeners that never settle', () => {
  it('after-response on a whole answer: the answer goes out once the bound passed', async () => {
    const response = await ask('after-hang', false)
    expect(response.status).toBe(200)
    expect((await response.json()).choices[0].message.content).toContain('You said: hi')
  })

  it('route-resolve: a 500 naming the plugin after the bound, while other requests are served', async () => {
    const hanging = ask('route-hang', false)
    const other = await ask('fine', false)
    expect(other.status).toBe(200)
    const response = await hanging
    expect(response.status).toBe(500)
    expect((await response.json()).error).toMatchObject({ code: 'plugin_hook_timeout', message: 'plugin "garbage" did not finish its route-resolve hook within 1 s' })
  })
})
