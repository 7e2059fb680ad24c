import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli } from '../helpers/spawn-cli.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { isAtomicTempFile, tempFileOwner } from '../../core/config/atomic-write.ts'
import { credentialFileSchema } from '../../plugins/credential-files/file-schema.ts'

/**
 * Crash safety: a proxy process is SIGKILLed at random moments while management writes (config values,
 * client keys, provider entries, credential uploads), token refreshes and usage flushes are in flight.
 * After every kill, config.yaml parses and validates, and every credential file and stored value is
 * whole: writes are temp file + fsync + rename, never in place.
 */

const rounds = Number(process.env.KILL_ROUNDS ?? 12)
const secret = 'kill-test-secret'
// Big tokens widen the window in which a file is being written.
const pad = 'x'.repeat(64 * 1024)

let upstream: MockUpstream
let oauth: MockUpstream
let dir: string
beforeAll(async () => {
  const { openaiMock } = await import('../../playground/mock-upstream/openai.ts')
  upstream = await startMockUpstream(openaiMock)
  let n = 0
  oauth = await startMockUpstream(async () => {
    await new Promise(resolve => setTimeout(resolve, Math.random() * 30))
    // Due again at once (expiry inside the 5-minute refresh window): every start refreshes every file.
    return new Response(JSON.stringify({ access_token: `fresh-${++n}-${pad}`, refresh_token: `rotated-${n}`, expires_in: 60 }), { headers: { 'content-type': 'application/json' } })
  })
  dir = mkdtempSync(join(tmpdir(), 'proxy-kill-'))
  const auths = join(dir, 'auths')
  mkdirSync(auths)
  for (let i = 0; i < 24; i++) {
    writeFileSync(join(auths, `beta-${i}.json`), JSON.stringify({ type: 'beta', access_token: 'old', refresh_token: `r${i}`, expiry: new Date(Date.now() - 1000).toISOString(), base_url: upstream.url }))
  }
  writeFileSync(join(dir, 'config.yaml'), `# kept comment
host: 127.0.0.1
api-keys: [k]
usage-statistics-enabled: true
auth-dir: ${auths}
oauth-clients:
  beta:
    token-url: ${oauth.url}/token
    client-id: test-client
compat-provider:
  - name: mock
    base-url: ${upstream.url}/v1
    api-key-entries: [{ api-key: up-1 }]
    models: [{ name: mock-gpt, alias: m }]
`)
})
afterAll(async () => {
  await upstream?.close()
  await oauth?.close()
  rmSync(dir, { recursive: true, force: true })
})

const files = (root: string): string[] => existsSync(root)
  ? readdirSync(root).flatMap(name => statSync(join(root, name)).isDirectory() ? files(join(root, name)) : [join(root, name)])
  : []

/** Everything on disk that the proxy reads back must be whole. */
function checkFiles(round: number): void {
  const yaml = parse(readFileSync(join(dir, 'config.yaml'), 'utf8'))
  expect(() => validateConfig(yaml), `round ${round}: config.yaml`).not.toThrow()
  for (const path of files(join(dir, 'auths'))) {
    if (isAtomicTempFile(path)) continue
    const text = readFileSync(path, 'utf8')
    let json: unknown
    expect(() => { json = JSON.parse(text) }, `round ${round}: ${relative(dir, path)} is not whole JSON (${text.length} chars)`).not.toThrow()
    expect(credentialFileSchema(['alpha', 'alpha-cli', 'beta', 'gamma', 'delta']).safeParse(json).success, `round ${round}: ${relative(dir, path)}`).toBe(true)
  }
  for (const path of files(join(dir, '.data'))) {
    if (isAtomicTempFile(path)) continue
    const text = readFileSync(path, 'utf8')
    expect(() => JSON.parse(text), `round ${round}: ${relative(dir, path)} is not whole JSON`).not.toThrow()
  }
}

/** A burst of writes of every kind; failures (the process died under them) are expected. */
function burst(url: string, round: number): Promise<unknown> {
  const management = (method: string, path: string, body: unknown) => fetch(`${url}/v0/management${path}`, {
    method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  }).catch(() => undefined)
  const chat = () => fetch(`${url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'count me' }] }),
  }).catch(() => undefined)
  const writes: Array<Promise<unknown>> = []
  for (let i = 0; i < 6; i++) {
    writes.push(management('PUT', '/debug', { value: i % 2 === 0 }))
    writes.push(management('PATCH', '/request-retry', { value: (round + i) % 5 }))
    writes.push(management('PUT', '/api-keys', ['k', ...Array.from({ length: 50 }, (_, j) => `key-${round}-${i}-${j}`)]))
    writes.push(management('PATCH', '/api-keys', { index: 1, value: `patched-${round}-${i}` }))
    writes.push(management('PUT', '/compat-provider', [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-1' }], models: [{ name: 'mock-gpt', alias: 'm' }] }, ...Array.from({ length: 20 }, (_, j) => ({ name: `p-${i}-${j}`, 'base-url': 'http://127.0.0.1:9/v1', models: [{ name: `x-${j}`, alias: `y-${j}` }] }))]))
    writes.push(fetch(`${url}/v0/management/auth-files?name=upload-${i}.json`, {
      method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'beta', access_token: `up-${round}-${pad}`, refresh_token: `u${i}`, expiry: new Date(Date.now() - 1000).toISOString(), base_url: upstream.url }),
    }).catch(() => undefined))
    for (let j = 0; j < 5; j++) writes.push(chat())
  }
  return Promise.all(writes)
}

describe('SIGKILL during writes', () => {
  it(`leaves config.yaml, credential files and stored state whole (${rounds} kills)`, async () => {
    let refreshed = 0
    for (let round = 0; round < rounds; round++) {
      const cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, { MANAGEMENT_PASSWORD: secret })
      const url = await cli.url
      void burst(url, round)
      // Kill somewhere inside the burst, the refreshes of every start, or a usage flush (every second).
      await new Promise(resolve => setTimeout(resolve, 20 + Math.random() * 1200))
      cli.child.kill('SIGKILL')
      expect(await cli.exit).toBeNull()
      checkFiles(round)
      refreshed += readdirSync(join(dir, 'auths')).filter(name => !isAtomicTempFile(name) && readFileSync(join(dir, 'auths', name), 'utf8').includes('fresh-')).length
    }
    // The kills did land among real writes: tokens were refreshed and the config was rewritten.
    expect(refreshed).toBeGreaterThan(0)
    expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).toContain('key-')
    // Start once more: the survivor files load.
    const cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, { MANAGEMENT_PASSWORD: secret })
    const url = await cli.url
    const listed = await (await fetch(`${url}/v0/management/auth-files`, { headers: { authorization: `Bearer ${secret}` } })).json() as { files: Array<{ name: string; state: string }> }
    expect(listed.files.filter(file => file.state === 'invalid')).toEqual([])
    expect(listed.files.some(file => file.name.endsWith('.tmp'))).toBe(false)
    // Issue 18.9: every temp file a killed writer left is swept at this start, however young (by owner,
    // not by age); only the running process's own writes in flight may show.
    const leftovers = () => files(dir)
      .filter(path => isAtomicTempFile(path) && tempFileOwner(path)?.pid !== cli.child.pid)
    await expect.poll(leftovers, { timeout: 5000, interval: 100 }).toEqual([])
    await cli.kill('SIGKILL')
  }, 120_000)
})
