import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'

/**
 * Listeners of every pipeline hook, all sync or all async: either way each step runs in order, and an
 * async listener finishes before the step after it (routing before the pick, the upstream request's edits
 * before it is sent, a whole answer's observers before it is sent). A guard for any change that skips
 * awaits on the hot path.
 */
const events: string[] = []
const later = (what: string, ms = 5) => new Promise<void>(resolve => setTimeout(() => { events.push(what); resolve() }, ms))
/** Every pipeline hook: async for models named `*-async`, sync otherwise. */
const probe = defineProxyPlugin({
  name: 'await-probe',
  setup(kernel) {
    // before-response slow enough (50 ms) for the mock's short stream to have ended meanwhile.
    const step = (what: string, model: string) => model.endsWith('-async') ? later(what, what === 'before-response' ? 50 : 5) : void events.push(what)
    kernel.hooks.hook('route-resolve', ({ request }) => step('route-resolve', request.model))
    kernel.hooks.hook('credential-pick', ({ request }) => step('credential-pick', request.model))
    kernel.hooks.hook('before-upstream', ({ request, http }) => {
      const done = step('before-upstream', request.model)
      // Set after the wait: the upstream sees it only if the request waited for this listener.
      return done ? done.then(() => { http.headers['x-probe'] = 'late' }) : void (http.headers['x-probe'] = 'now')
    })
    kernel.hooks.hook('attempt-result', ({ request }) => step('attempt-result', request.model))
    kernel.hooks.hook('before-response', ({ request, responseHeaders }) => {
      const done = step('before-response', request.model)
      return done ? done.then(() => { responseHeaders['x-probe-answer'] = 'late' }) : void (responseHeaders['x-probe-answer'] = 'now')
    })
    kernel.hooks.hook('after-response', ({ request }) => step('after-response', request.model))
  },
})

let upstream: MockUpstream
let proxy: TestProxy
const probeHeaders = () => upstream.requests.at(-1)?.headers['x-probe']

beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'gpt-sync', alias: '' }, { name: 'gpt-async', alias: '' }] }],
  }, [probe])
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

async function ask(model: string, stream: boolean): Promise<{ header: string | null; text: string }> {
  events.length = 0
  const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }) })
  expect(response.status).toBe(200)
  return { header: response.headers.get('x-probe-answer'), text: await response.text() }
}

describe('hooks are awaited when async, not otherwise', () => {
  it.each([['gpt-sync', 'now'], ['gpt-async', 'late']])('%s, whole answer: every step in order, edits of async listeners applied', async (model, mark) => {
    const { header } = await ask(model, false)
    expect(events).toEqual(['route-resolve', 'credential-pick', 'before-upstream', 'attempt-result', 'before-response', 'after-response'])
    expect(probeHeaders()).toBe(mark)
    expect(header).toBe(mark)
  })

  // A stream's after-response runs when it ends, and never before before-response: a short stream can
  // end while slow before-response listeners still run, and observers (the recorder, logs, traces) rely
  // on seeing the answer's start first.
  it.each([['gpt-sync', 'now'], ['gpt-async', 'late']])('%s, stream: every step in order, after-response once it ended', async (model, mark) => {
    const { header, text } = await ask(model, true)
    expect(text).toContain('[DONE]')
    for (let i = 0; i < 50 && events.length < 6; i++) await new Promise(resolve => setTimeout(resolve, 10))
    expect(events).toEqual(['route-resolve', 'credential-pick', 'before-upstream', 'attempt-result', 'before-response', 'after-response'])
    expect(probeHeaders()).toBe(mark)
    expect(header).toBe(mark)
  })
})
