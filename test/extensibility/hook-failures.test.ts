import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

/**
 * A plugin whose observer listeners all fail (sync throws and async rejections) and whose deciding
 * `route-resolve` listener throws for one model. It runs in a real `proxy start` process: a rejection
 * nobody handles would end that process, which an in-process test could not show.
 */
const pluginSource = `
import { defineProxyPlugin, ProxyError } from 'model-proxy'

export default defineProxyPlugin({
  name: 'flaky-observer',
  setup(kernel) {
    kernel.hooks.hook('attempt-result', () => { throw new Error('attempt-result broke on purpose') })
    kernel.hooks.hook('before-response', () => { throw new Error('before-response broke on purpose') })
    kernel.hooks.hook('after-response', async () => {
      await new Promise(resolve => setTimeout(resolve, 5))
      throw new Error('after-response broke on purpose')
    })
    kernel.hooks.hook('route-resolve', (ctx) => {
      if (ctx.request.model === 'explode') throw new Error('route-resolve broke: internal detail')
      // Failures no hook sees: a promise nobody awaits, an error thrown in the plugin's own timer.
      if (ctx.request.model === 'stray') {
        Promise.reject(new Error('stray rejection on purpose'))
        setTimeout(() => { throw new Error('stray timer error on purpose') }, 1)
      }
      if (ctx.request.model === 'refuse') throw new ProxyError(429, 'this key spent its budget', 'rate_limit_error', 'budget_spent')
    })
  },
})
`

let upstream: MockUpstream
let dir: string
let cli: CliProcess
let url: string
let openai: OpenAI

beforeAll(async () => {
  upstream = await startMockOpenAI()
  dir = mkdtempSync(join(tmpdir(), 'hook-failures-'))
  writeFileSync(join(dir, 'flaky.mjs'), pluginSource)
  writeFileSync(join(dir, 'proxy.config.mjs'), "export default { config: './config.yaml', plugins: ['./flaky.mjs'], storage: { driver: 'memory' } }\n")
  writeFileSync(join(dir, 'config.yaml'), [
    'host: 127.0.0.1', 'api-keys: [k]', `auth-dir: ${dir}/auths`,
    `compat-provider: [{ name: mock, base-url: '${upstream.url}/v1', models: [{ name: mock-gpt, alias: mock-gpt }] }]`,
    '',
  ].join('\n'))
  cli = runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir)
  url = await cli.url
  openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0 })
}, 60_000)
afterAll(async () => {
  await cli?.kill()
  await upstream?.close()
  rmSync(dir, { recursive: true, force: true })
})

const alive = () => expect(cli.child.exitCode).toBeNull()
/** The plugin's failures reach the log under its name, without ending anything. */
const logged = (hook: string) => expect(cli.output()).toMatch(new RegExp(`plugin "flaky-observer": its ${hook} hook failed[^\\n]*${hook} broke on purpose`))

describe('a plugin whose observer hooks fail', () => {
  it('a stream: the client gets the whole answer, the process lives on, the log names the plugin', async () => {
    const stream = await openai.chat.completions.create({ model: 'mock-gpt', messages: [{ role: 'user', content: 'stream me' }], stream: true })
    let text = ''
    let finish: string | null = null
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
    }
    expect(text).toBe('Hello from the playground mock upstream. You said: stream me')
    expect(finish).toBe('stop')
    // The after-response listener rejects 5 ms after the stream ended: give it the time to do harm.
    await new Promise(resolve => setTimeout(resolve, 300))
    alive()
    logged('after-response')
    logged('before-response')
    logged('attempt-result')
    const again = await openai.chat.completions.create({ model: 'mock-gpt', messages: [{ role: 'user', content: 'still there?' }] })
    expect(again.choices[0]!.message.content).toBe('Hello from the playground mock upstream. You said: still there?')
  })

  it('a whole answer: the client gets the good answer, not a 500', async () => {
    const completion = await openai.chat.completions.create({ model: 'mock-gpt', messages: [{ role: 'user', content: 'ping' }] })
    expect(completion.choices[0]!.message.content).toBe('Hello from the playground mock upstream. You said: ping')
    expect(completion.model).toBe('mock-gpt')
    await new Promise(resolve => setTimeout(resolve, 50))
    alive()
    logged('after-response')
  })

  it('a translated answer (messages client, chat upstream) is not lost either', async () => {
    const anthropic = new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0 })
    const message = await anthropic.messages.create({ model: 'mock-gpt', max_tokens: 64, messages: [{ role: 'user', content: 'translate me' }] })
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from the playground mock upstream. You said: translate me' })
    alive()
  })
})

describe('a plugin whose deciding hook fails', () => {
  it('an OpenAI client gets a 500 in its own format naming the plugin and hook, not the error text', async () => {
    const error = await openai.chat.completions.create({ model: 'explode', messages: [{ role: 'user', content: 'hi' }] }).catch(e => e)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect(error.status).toBe(500)
    expect(error.error).toMatchObject({ message: 'plugin "flaky-observer" failed in its route-resolve hook', type: 'server_error', code: 'plugin_hook_failed' })
    expect(JSON.stringify(error.error)).not.toContain('internal detail')
  })

  it('a Messages client gets the same failure as its format\'s error', async () => {
    const anthropic = new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0 })
    const error = await anthropic.messages.create({ model: 'explode', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }).catch(e => e)
    expect(error).toBeInstanceOf(Anthropic.APIError)
    expect(error.status).toBe(500)
    expect(error.error).toEqual({ type: 'error', error: { type: 'api_error', message: 'plugin "flaky-observer" failed in its route-resolve hook' } })
  })

  it('a ProxyError thrown on purpose reaches the client as it is', async () => {
    const error = await openai.chat.completions.create({ model: 'refuse', messages: [{ role: 'user', content: 'hi' }] }).catch(e => e)
    expect(error.status).toBe(429)
    expect(error.error).toMatchObject({ message: 'this key spent its budget', type: 'rate_limit_error', code: 'budget_spent' })
  })

  it('a stray rejection or timer error of the plugin is logged; the process keeps serving', async () => {
    const error = await openai.chat.completions.create({ model: 'stray', messages: [{ role: 'user', content: 'hi' }] }).catch(e => e)
    expect(error.status).toBe(404)
    await new Promise(resolve => setTimeout(resolve, 200))
    alive()
    expect(cli.output()).toMatch(/a promise rejected and nobody handled it[^\n]*stray rejection on purpose/)
    expect(cli.output()).toMatch(/an error was thrown outside any request[^\n]*stray timer error on purpose/)
    const completion = await openai.chat.completions.create({ model: 'mock-gpt', messages: [{ role: 'user', content: 'still?' }] })
    expect(completion.choices[0]!.message.content).toContain('You said: still?')
  })

  it('the operator\'s log has the original error; the server keeps serving', async () => {
    expect(cli.output()).toContain('route-resolve broke: internal detail')
    alive()
    const completion = await openai.chat.completions.create({ model: 'mock-gpt', messages: [{ role: 'user', content: 'after' }] })
    expect(completion.choices[0]!.message.content).toContain('You said: after')
  })
})
