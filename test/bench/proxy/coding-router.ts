// The coding-agent peer: @musistudio/claude-code-router, whose main job is what the agent rows measure
// (a messages client on an OpenAI-compatible upstream). Installed into a temp folder on first use, never
// into this repo. Pinned to 2.0.0: 3.1.1, the newest, depends on @the-next-ai/* packages that the npm
// registry this bench runs against does not serve (404), so it cannot be installed here.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { freePort } from './free-port.ts'
import { benchKey, type Running } from './processes.ts'

export const routerName = 'claude-code-router 2.0.0'
const folder = join(tmpdir(), 'model-proxy-bench-ccr')

function install(): string {
  const entry = join(folder, 'node_modules/@musistudio/claude-code-router/dist/cli.js')
  if (existsSync(entry)) return entry
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'bench-ccr', private: true, dependencies: { '@musistudio/claude-code-router': '2.0.0' } }))
  console.log(`installing ${routerName} into ${folder} ...`)
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: 'inherit' })
  return entry
}

/** The router as its own process (its own HOME holds its config), every request to the mock's chat API. */
export async function startCodingRouter(upstream: string): Promise<Running> {
  const entry = install()
  const port = await freePort()
  const home = join(folder, `home-${port}`)
  mkdirSync(join(home, '.claude-code-router'), { recursive: true })
  writeFileSync(join(home, '.claude-code-router/config.json'), JSON.stringify({
    PORT: port, HOST: '127.0.0.1', APIKEY: benchKey, LOG: false,
    Providers: [{ name: 'mock', api_base_url: `${upstream}/v1/chat/completions`, api_key: 'up', models: ['bench'] }],
    Router: { default: 'mock,bench' },
  }))
  const child = spawn(process.execPath, [entry, 'start'], { cwd: folder, env: { ...process.env, HOME: home }, stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 150; i++) {
    const ok = await request(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': benchKey }, body: JSON.stringify({ model: 'bench', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }) })
      .then(async (response) => { await response.body.text(); return response.statusCode === 200 }, () => false)
    if (ok) break
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  return { url, pid: child.pid!, child, stop: () => new Promise(done => { child.once('exit', () => done()); child.kill('SIGTERM') }) }
}
