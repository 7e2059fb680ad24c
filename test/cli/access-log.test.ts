import { afterEach, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

// The access log is written by the server the CLI starts: one line per finished request on stdout,
// in the format the environment or the YAML asks for, never with a secret in it.
const running: CliProcess[] = []
const dirs: string[] = []
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map(cli => cli.kill('SIGKILL')))
  for (const server of servers.splice(0)) server.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const reply = JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })

async function upstream(): Promise<string> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(reply))
  })
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

async function serve(yaml: string, env: Record<string, string>): Promise<{ url: string; cli: CliProcess }> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-accesslog-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [sk-access-log-test-key-0123456789]\nauth-dir: ${dir}/auths\n${yaml}`)
  const cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.config.ts')], dir, env)
  running.push(cli)
  return { url: await cli.url, cli }
}

const chat = (url: string) => fetch(`${url}/v1/chat/completions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk-access-log-test-key-0123456789', 'x-request-id': 'access-log-1' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] }),
})

describe('access log through the CLI server', () => {
  it('PROXY_ACCESS_LOG=json: one JSON line per request, with usage and the key masked', async () => {
    const { url, cli } = await serve(`compat-provider: [{ name: up, base-url: '${await upstream()}/v1', api-key-entries: [{ api-key: sk-upstream-secret-9876543210 }], models: [{ name: m }] }]\n`, { PROXY_ACCESS_LOG: 'json' })
    expect((await chat(url)).status).toBe(200)
    await expect.poll(() => cli.output(), { timeout: 5000 }).toContain('"request_id":"access-log-1"')
    const line = JSON.parse(cli.output().split('\n').find(text => text.includes('"request_id":"access-log-1"'))!)
    expect(line).toMatchObject({ msg: 'request', method: 'POST', path: '/v1/chat/completions', status: 200, model: 'm', family: 'compat', input_tokens: 3, output_tokens: 2 })
    expect(cli.output()).not.toContain('sk-access-log-test-key-0123456789')
    expect(cli.output()).not.toContain('sk-upstream-secret-9876543210')
  })

  it('the YAML picks text; the environment overrides it, and off writes nothing', async () => {
    const yaml = async (mode: string) => `access-log: ${mode}\ncompat-provider: [{ name: up, base-url: '${await upstream()}/v1', models: [{ name: m }] }]\n`
    const text = await serve(await yaml('text'), { PROXY_ACCESS_LOG: '' })
    expect((await chat(text.url)).status).toBe(200)
    await expect.poll(() => text.cli.output(), { timeout: 5000 }).toMatch(/ 200 POST \/v1\/chat\/completions m compat\/\S+ key=\S+ tokens=3\/2 \d+ms access-log-1/)
    const off = await serve(await yaml('text'), { PROXY_ACCESS_LOG: 'off' })
    expect((await chat(off.url)).status).toBe(200)
    // A second request proves the first one's line had its chance to be written.
    expect((await chat(off.url)).status).toBe(200)
    await new Promise(resolve => setTimeout(resolve, 200))
    expect(off.cli.output()).not.toContain('access-log-1')
  })
})
