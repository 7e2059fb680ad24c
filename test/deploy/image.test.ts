import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureBuildBase, exportImage, imageTestBlocker, run } from '../helpers/podman-image.ts'
import { freePort } from '../helpers/redis-server.ts'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'

/**
 * The Dockerfile, built for real with podman (a stand-in Node base: no registry here), and the server
 * started from the image's exported filesystem under chroot as its non-root user answers requests. Out
 * of the default run (minutes): `npm run test:image`. Running a container is refused by this sandbox
 * (cgroups); chroot runs the same files, entrypoint and user.
 */
const blocker = imageTestBlocker()
const root = fileURLToPath(new URL('../..', import.meta.url))
const tag = 'localhost/model-proxy:test'
let work: string
let inspect: { Size: number; Healthcheck?: { Test: string[] }; Config: { User: string; Healthcheck?: { Test: string[] }; Entrypoint: string[]; Env: string[] } }
let upstream: MockUpstream
let server: ChildProcess | undefined

beforeAll(async () => {
  if (blocker) return
  work = mkdtempSync(join(tmpdir(), 'proxy-image-'))
  const base = await ensureBuildBase()
  await run('podman', ['build', '--format', 'docker', '--isolation', 'chroot', '--build-arg', `NODE_IMAGE=${base}`, '-t', tag, root], { timeout: 900_000, maxBuffer: 64 << 20 })
  inspect = JSON.parse((await run('podman', ['image', 'inspect', tag])).stdout)[0]
  await exportImage(tag, join(work, 'fs'))
  upstream = await startMockOpenAI()
}, 1_200_000)

afterAll(async () => {
  if (server?.pid) try { process.kill(server.pid, 'SIGKILL') } catch {}
  await upstream?.close()
  if (work) rmSync(work, { recursive: true, force: true })
}, 120_000)

describe.skipIf(!!blocker)(`the container image${blocker ? ` (skipped: ${blocker})` : ''}`, () => {
  it('is well under 250 MB, runs as uid 1000, checks its health on /healthz', () => {
    console.log(`image ${tag}: ${(inspect.Size / 1e6).toFixed(0)} MB`)
    expect(inspect.Size).toBeLessThan(250e6)
    expect(inspect.Config.User).toBe('1000:1000')
    expect((inspect.Healthcheck ?? inspect.Config.Healthcheck)?.Test.join(' ')).toContain('/healthz')
    expect(inspect.Config.Entrypoint).toContain('--no-memory-reducer')
    expect(statSync(join(work, 'fs', 'data')).uid).toBe(1000)
    expect(statSync(join(work, 'fs', 'app', 'core')).uid).toBe(0)
    // jiti's cache, made at build time for /app's paths, root's; the bin copies it to /tmp at start.
    const seed = join(work, 'fs', 'app', '.jiti-cache')
    expect(statSync(seed).uid).toBe(0)
    expect(readdirSync(seed).length).toBeGreaterThan(100)
    expect(inspect.Config.Env).toContain('PROXY_JITI_CACHE_SEED=/app/.jiti-cache')
  })

  it('the server started from its filesystem (entrypoint, user, environment) answers a real request', async () => {
    const fs = join(work, 'fs')
    mkdirSync(join(fs, 'config'), { recursive: true })
    writeFileSync(join(fs, 'config', 'config.yaml'), [
      'api-keys: [image-key]',
      `compat-provider: [{ name: mock, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: up }], models: [{ name: mock-gpt, alias: m }] }]`, '',
    ].join('\n'))
    const port = await freePort()
    const env = Object.fromEntries(inspect.Config.Env.map(item => [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]))
    // The image's entrypoint, with the port moved to a free one (the sandbox shares the host's network).
    const entrypoint = inspect.Config.Entrypoint.map((arg, i, all) => all[i - 1] === '--port' ? String(port) : arg)
    server = spawn('/usr/sbin/chroot', ['--userspec=1000:1000', fs, ...entrypoint, '--config', '/config/config.yaml'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    server.stdout!.on('data', chunk => { out += chunk })
    server.stderr!.on('data', chunk => { out += chunk })
    const started = performance.now()
    const shipped = readdirSync(join(fs, 'app', '.jiti-cache')).length
    await expect.poll(() => out, { timeout: 120_000, interval: 100 }).toContain('listening on')
    const transpiled = readdirSync(join(fs, 'tmp', 'jiti')).length - shipped
    console.log(`image server listening after ${Math.round(performance.now() - started)} ms, ${transpiled} files transpiled at start`)
    expect(transpiled).toBe(0)
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
    const answer = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer image-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(answer.status).toBe(200)
    await expect.poll(() => out, { timeout: 5000 }).toMatch(/"msg":"request".*"status":200/)
    // Its own lines are plain to a pipe (no terminal formatter loaded).
    expect(out).toMatch(/^\[info\] \[proxy\] listening on /m)
  }, 180_000)

  it('holds no transpiler after its start: resident memory as after a warm start', async () => {
    // A file missing from the cache is transpiled in a worker that ends 2 s after its last file; in the
    // server's own thread the transpiler kept ~290 MB resident (every start, before the cache shipped).
    await new Promise(resolve => setTimeout(resolve, 3000))
    const rssMb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server!.pid}/status`, 'utf8'))![1]) / 1024
    console.log(`image server RSS after its start and one request: ${rssMb.toFixed(0)} MB`)
    expect(rssMb).toBeLessThan(170)
  })
})
