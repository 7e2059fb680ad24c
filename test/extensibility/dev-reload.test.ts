import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

const plugin = (version: string) => `
import { defineProxyPlugin } from 'model-proxy'
export default defineProxyPlugin({ name: 'hello', setup(kernel) { kernel.app.get('/hello', () => new Response('${version}')) } })
`

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
  writeFileSync(join(dir, 'proxy.config.mjs'), "export default { config: './config.yaml', plugins: ['./plugin.mjs'], storage: { driver: 'memory' } }\n")
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
    expect(await (await fetch(`${url}/hello`)).text()).toBe('v1')
    const stream = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    })
    const body = stream.text()
    writeFileSync(join(dir, 'plugin.mjs'), plugin('v2'))
    await expect.poll(async () => (await fetch(`${url}/hello`)).text(), { timeout: 5000, interval: 100 }).toBe('v2')
    const text = await body
    expect(text).toContain('"last"')
    expect(text.trim().endsWith('data: [DONE]')).toBe(true)
  })
})
