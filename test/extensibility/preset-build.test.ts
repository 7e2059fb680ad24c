import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { buildServer } from '../../core/cli/build-server.ts'

let upstream: MockUpstream
let out: string
beforeAll(async () => {
  upstream = await startMockOpenAI()
  out = join(mkdtempSync(join(tmpdir(), 'proxy-build-')), 'server')
  await buildServer('coding-agents', out)
}, 60_000)
afterAll(async () => {
  await upstream.close()
  rmSync(join(out, '..'), { recursive: true, force: true, maxRetries: 5 })
})

describe('proxy build --preset coding-agents', () => {
  it('produces a folder with the code, the preset and only runtime dependencies', () => {
    for (const path of ['server.mjs', 'package.json', 'proxy.config.mjs', 'config.yaml', 'app/core/index.ts', 'app/plugins/presets/coding-agents/config.yaml', 'app/node_modules/h3', 'app/node_modules/jiti']) {
      expect(existsSync(join(out, path)), path).toBe(true)
    }
    for (const path of ['app/node_modules/vitest', 'app/node_modules/openai', 'app/core/config/validate.test.ts', 'app/providers/gamma/codec/fixtures']) {
      expect(existsSync(join(out, path)), path).toBe(false)
    }
  })

  it('starts with its own start line (node with the server flags) and serves a request, the preset layer under the project YAML', async () => {
    writeFileSync(join(out, 'config.yaml'), [
      'host: 127.0.0.1', 'api-keys: [k]', 'remote-management: { secret-key: admin }', 'request-retry: 1',
      `compat-provider: [{ name: mock, base-url: '${upstream.url}/v1', models: [{ name: mock-gpt, alias: m }] }]`, '',
    ].join('\n'))
    // The command its package.json and README give: node with the server's flags (core/cli/heap-flags.ts).
    const [node, ...flags] = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')).scripts.start.split(' ')
    expect(node).toBe('node')
    const child = spawn(process.execPath, [...flags, '--port', '0'], { cwd: out, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let text = ''
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          text += chunk
          const match = /listening on (\S+)/.exec(text)
          if (match) resolve(match[1]!)
        }
        child.stdout.on('data', onData)
        child.stderr.on('data', onData)
        child.on('exit', code => reject(new Error(`exited ${code}: ${text}`)))
      })
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'built' }] }),
      })
      expect((await response.json()).choices[0].message.content).toContain('You said: built')
      const config = await (await fetch(`${url}/v0/management/config`, { headers: { authorization: 'Bearer admin' } })).json()
      expect(config.streaming['keepalive-seconds']).toBe(15) // from the preset
      expect(config['request-retry']).toBe(1) // the project's YAML wins
      expect(text).not.toContain('was started without') // the start line's flags reached node
    } finally {
      const exited = new Promise(resolve => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
  })
})
