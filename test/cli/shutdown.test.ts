import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli } from '../helpers/spawn-cli.ts'

let upstream: MockUpstream
let dir: string
beforeAll(async () => {
  // One chunk now, the rest 1.5 s later.
  upstream = await startMockUpstream(() => {
    const encoder = new TextEncoder()
    const frame = (content: string) => encoder.encode(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`)
    return new Response(new ReadableStream({
      async start(controller) {
        controller.enqueue(frame('first '))
        await new Promise(resolve => setTimeout(resolve, 1500))
        controller.enqueue(frame('last'))
        controller.enqueue(encoder.encode('data: [DONE]\n\n'))
        controller.close()
      },
    }), { headers: { 'content-type': 'text/event-stream' } })
  })
  dir = mkdtempSync(join(tmpdir(), 'proxy-shutdown-'))
  writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [k]\ncompat-provider: [{ name: slow, base-url: '${upstream.url}/v1', models: [{ name: m, alias: m }] }]\n`)
})
afterAll(async () => {
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('SIGTERM', () => {
  it('stops accepting, lets an open stream finish, and exits 0', async () => {
    const cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, { PROXY_DRAIN_SECONDS: '5' })
    const url = await cli.url
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    })
    const reader = response.body!.getReader()
    await reader.read()
    cli.child.kill('SIGTERM')
    await new Promise(resolve => setTimeout(resolve, 300))
    await expect(fetch(`${url}/healthz`)).rejects.toThrow()
    let text = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    expect(text).toContain('"last"')
    expect(text.trim().endsWith('data: [DONE]')).toBe(true)
    expect(await cli.exit).toBe(0)
  })
})
