import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

const plugin = (version: string) => `
import { defineProxyPlugin } from 'model-proxy'
import { greeting } from './greeting.ts'
export default defineProxyPlugin({ name: 'hello', setup(kernel) { kernel.app.get('/hello', () => new Response('${version} ' + greeting)) } })
`
const greeting = (word: string) => `export const greeting: string = '${word}'\n`

let upstream: MockUpstream
let dir: string
let cli: CliProcess
beforeAll(async () => {
  // A slow upstream: one chunk now, the rest 2 s later.
  upstream = await startMockUpstream(() => {
    const encoder = new TextEncoder()
    const frame = (content: string) => encoder.encode(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`)
    return new Response(new ReadableStream({
      async start(controller) {
        controller.enqueue(frame('first '))
        await new Promise(resolve => setTimeout(resolve, 2000))
        controller.enqueue(frame('last'))
        controller.enqueue(encoder.encode('data: [DONE]\n\n'))
        controller.close()
      },
    }), { headers: { 'content-type': 'text/event-stream' } })
  })
  dir = mkdtempSync(join(tmpdir(), 'proxy-dev-'))
  writeFileSync(join(dir, 'plugin.mjs'), plugin('v1'))
  writeFileSync(join(dir, 'greeting.ts'), greeting('hi'))
  writeFileSync(join(dir, 'proxy.config.ts'), "import { defineProxyConfig } from 'model-proxy'\nexport default defineProxyConfig({ config: './config.yaml', plugins: ['./plugin.mjs'], storage: { driver: 'memory' } })\n")
  writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [k]\ncompat-provider:\n  - name: slow\n    base-url: ${upstream.url}/v1\n    models: [{ name: m, alias: m }]\n`)
  cli = runCli(['dev', '--dir', dir, '--port', '0'], dir)
})
afterAll(async () => {
  await cli.kill('SIGKILL')
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('proxy dev', () => {
  it('reloads a changed plugin while an open stream finishes on the old app', async () => {
    const url = await cli.url
    expect(await (await fetch(`${url}/hello`)).text()).toBe('v1 hi')
    const stream = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    })
    const body = stream.text()
    writeFileSync(join(dir, 'plugin.mjs'), plugin('v2'))
    await expect.poll(async () => (await fetch(`${url}/hello`)).text(), { timeout: 5000, interval: 100 }).toBe('v2 hi')
    const text = await body
    expect(text).toContain('"last"')
    expect(text.trim().endsWith('data: [DONE]')).toBe(true)
  })

  it('reloads a module the plugin imports, not only the plugin file (built-ins stay loaded once)', async () => {
    const url = await cli.url
    writeFileSync(join(dir, 'greeting.ts'), greeting('hello'))
    await expect.poll(async () => (await fetch(`${url}/hello`)).text(), { timeout: 5000, interval: 100 }).toBe('v2 hello')
  })
})
