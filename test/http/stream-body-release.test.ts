import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'
import { BodyReleasedError, type ResponseContext } from '../../core/index.ts'

/**
 * A stream answer lets go of the client's body once every `before-response` hook has run, unless a hook
 * set `request.keepBody`: an open agent stream otherwise holds its 80-150 KB request for its whole life.
 * What `after-response` observers get besides the body (status, usage, the error) is unchanged.
 */
let beta: MockUpstream
let compat: MockUpstream
let proxy: TestProxy
interface Seen { stream: boolean; status: number; usage: ResponseContext['usage']; bytes: boolean; body: unknown }
const seen: Seen[] = []
/** Requests whose model names `keep` ask to keep their body. */
const probe = defineProxyPlugin({
  name: 'release-probe',
  setup(kernel) {
    kernel.hooks.hook('before-response', ({ request }) => {
      if (request.model.includes('keep')) request.keepBody = true
    })
    kernel.hooks.hook('after-response', (ctx) => {
      let body: unknown
      try { body = ctx.request.body } catch (error) { body = error }
      seen.push({ stream: ctx.request.stream, status: ctx.status, usage: ctx.usage, bytes: ctx.request.clientBody !== undefined, body })
    })
  },
})

beforeAll(async () => {
  [beta, compat] = await Promise.all([messagesMock, openaiMock].map(handler => startMockUpstream(handler)))
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': beta!.url, models: [{ name: 'claude-same', alias: '' }, { name: 'claude-keep', alias: '' }] }],
    'compat-provider': [{ name: 'mock', 'base-url': `${compat!.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-compat' }], models: [{ name: 'gpt-other', alias: '' }, { name: 'gpt-keep', alias: '' }] }],
  }, [probe])
})
afterAll(async () => {
  await proxy.close()
  await Promise.all([beta, compat].map(upstream => upstream.close()))
})

async function ask(model: string, stream: boolean): Promise<Seen> {
  const text = JSON.stringify({ model, max_tokens: 50, stream, messages: [{ role: 'user', content: `hello ${'x'.repeat(20_000)}` }] })
  const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'k', 'content-type': 'application/json' }, body: text })
  expect(response.status).toBe(200)
  await response.text()
  // after-response of a stream runs when it ends: by now, or a moment later.
  for (let i = 0; i < 50 && seen.length === 0; i++) await new Promise(resolve => setTimeout(resolve, 10))
  expect(seen).toHaveLength(1)
  return seen.pop()!
}

describe('a stream answer lets go of the client body once it has started', () => {
  it.each(['claude-same', 'gpt-other'])('%s: after-response of a stream finds no body (BodyReleasedError), and the same usage as a kept one', async (model) => {
    const released = await ask(model, true)
    expect(released.bytes).toBe(false)
    expect(released.body).toBeInstanceOf(BodyReleasedError)
    const kept = await ask(model.replace(/same|other/, 'keep'), true)
    expect(kept.bytes || typeof kept.body === 'object').toBe(true)
    expect((kept.body as { messages: unknown[] }).messages).toHaveLength(1)
    // Usage, status: what observers count is what they counted before.
    expect(released.status).toBe(kept.status)
    expect(released.usage).toEqual(kept.usage)
    expect(released.usage?.inputTokens).toBeGreaterThan(0)
  })

  it('a whole (non-stream) answer keeps the body to the end', async () => {
    const whole = await ask('claude-same', false)
    expect((whole.body as { model: string }).model).toBe('claude-same')
  })

  it('the upstream got the client\'s bytes whole (same format) although they are let go', async () => {
    await ask('claude-same', true)
    expect(JSON.parse(beta.requests.at(-1)!.body).messages[0].content).toMatch(/^hello x{20000}$/)
  })
})
