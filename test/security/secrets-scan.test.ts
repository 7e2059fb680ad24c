import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { parse } from 'yaml'
import { createConsola } from 'consola'
import { createProxy, type Proxy } from '../../core/app.ts'
import { listen, type RunningServer } from '../../core/runtime/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'

/**
 * Runs a proxy holding known secrets with every log on, drives ordinary and failing traffic, then looks
 * for each secret (whole, and every 12-character piece of it) in every log file, response body and
 * response header. Upstreams here echo what they were sent, the worst case for a leak.
 */
const hex = () => randomBytes(12).toString('hex')
const secrets = {
  clientKey: `sk-client-${hex()}`,
  compatKey: `up-compat-${hex()}`,
  betaKey: `up-beta-${hex()}`,
  managementSecret: `mgmt-${hex()}`,
  accessToken: `oauth-access-${hex()}`,
  refreshToken: `oauth-refresh-${hex()}`,
  expiredAccessToken: `oauth-old-access-${hex()}`,
  expiredRefreshToken: `oauth-old-refresh-${hex()}`,
}
/** Keys the operator wrote into the config: management config reads return them by design (spec: GET /config). */
const configHeld = new Set([secrets.clientKey, secrets.compatKey, secrets.betaKey])
const configReads = /\/v0\/management\/(config|config\.yaml|api-keys|compat-provider|(alpha|beta|gamma|delta)-api-key)$/

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
/** An upstream that fails with whatever credential it was sent in its error message. */
const echoFailure = (request: Request, status: number) => json({ error: { type: 'error', message: `rejected credential ${request.headers.get('authorization') ?? ''} ${request.headers.get('x-api-key') ?? ''}` } }, status)

let compat: MockUpstream
let beta: MockUpstream
let oauth: MockUpstream
let proxy: Proxy
let server: RunningServer
let root: string
let logsDir: string
const seen: Array<{ url: string; status: number; headers: string; body: string }> = []

async function send(path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const response = await fetch(`${server.url}${path}`, init)
  const body = await response.text()
  seen.push({ url: path.split('?')[0]!, status: response.status, headers: [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n'), body })
  return { status: response.status, body }
}
const asClient = (path: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${secrets.clientKey}` }) =>
  send(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
const asAdmin = (method: string, path: string, body?: unknown, key = secrets.managementSecret) =>
  send(`/v0/management${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

beforeAll(async () => {
  compat = await startMockUpstream(async (request) => {
    const body = await request.clone().json().catch(() => ({})) as { model?: string }
    const failure = /^fail-(\d{3})/.exec(body.model ?? '')
    if (failure) return echoFailure(request, Number(failure[1]))
    // A chatty upstream: it quotes the credential in a response header (passthrough-headers is on).
    const answer = await openaiMock(request)
    answer.headers.set('x-upstream-debug', `auth=${request.headers.get('authorization')}`)
    return answer
  })
  beta = await startMockUpstream(async (request) => {
    const body = await request.clone().json().catch(() => ({})) as { model?: string }
    return body.model === 'claude-haiku-4-5' ? echoFailure(request, 401) : messagesMock(request)
  })
  // A token endpoint that refuses the refresh and quotes the whole request back.
  oauth = await startMockUpstream(async request => new Response(`invalid_grant for ${await request.text()}`, { status: 400 }))

  root = mkdtempSync(join(tmpdir(), 'proxy-secrets-'))
  logsDir = join(root, 'logs')
  const authDir = join(root, 'auths')
  mkdirSync(authDir)
  writeFileSync(join(authDir, 'beta-live.json'), JSON.stringify({ type: 'beta', access_token: secrets.accessToken, refresh_token: secrets.refreshToken, expiry: new Date(Date.now() + 86_400_000).toISOString(), email: 'dev@example.com', base_url: beta.url }))
  writeFileSync(join(authDir, 'beta-expired.json'), JSON.stringify({ type: 'beta', access_token: secrets.expiredAccessToken, refresh_token: secrets.expiredRefreshToken, expiry: new Date(Date.now() - 60_000).toISOString(), email: 'old@example.com', base_url: beta.url }))
  const yaml = `host: 127.0.0.1
api-keys: [${secrets.clientKey}]
remote-management:
  secret-key: ${secrets.managementSecret}
logging-to-file: true
request-log: false
usage-statistics-enabled: true
passthrough-headers: true
request-retry: 1
logs-dir: ${logsDir}
auth-dir: ${authDir}
oauth-clients:
  beta:
    token-url: ${oauth.url}/token
compat-provider:
  - name: echo
    base-url: ${compat.url}/v1
    api-key-entries: [{ api-key: ${secrets.compatKey} }]
    models: [{ name: mock-gpt, alias: m }, { name: fail-401 }, { name: fail-429 }, { name: fail-500 }]
beta-api-key:
  - api-key: ${secrets.betaKey}
    base-url: ${beta.url}
    models: [{ name: mock-claude, alias: c }]
`
  const configPath = join(root, 'config.yaml')
  writeFileSync(configPath, yaml)
  // A real logger (printing nowhere): what the kernel logs goes to main.log through the logs plugin.
  const logger = createConsola({ level: 5, reporters: [] })
  proxy = await createProxy({ config: validateConfig(parse(yaml)), logger, configPath })
  server = await listen(() => proxy, proxy.kernel.config, { port: 0, host: '127.0.0.1' })
  // The expired file's refresh fails at start-up; wait until it is blocked with the endpoint's reason.
  for (let i = 0; i < 100; i++) {
    const listed = await asAdmin('GET', '/auth-files')
    if (listed.body.includes('"blocked"')) break
    await new Promise(resolve => setTimeout(resolve, 50))
  }
})
afterAll(async () => {
  await server.close()
  await proxy.close()
  await Promise.all([compat.close(), beta.close(), oauth.close()])
  rmSync(root, { recursive: true, force: true })
})

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** Where a secret (whole, or any 12-character piece) shows up in `text`. */
function leaks(text: string, secret: string): string | undefined {
  for (let i = 0; i + 12 <= secret.length; i++) {
    const piece = secret.slice(i, i + 12)
    const at = text.indexOf(piece)
    if (at !== -1) return text.slice(Math.max(0, at - 60), at + 60)
  }
  return undefined
}

describe('no secret reaches a log, a response or the usage export', () => {
  it('drives traffic of every kind', async () => {
    const chat = (model: string, extra: Record<string, unknown> = {}) => asClient('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }], ...extra })
    expect((await chat('m')).status).toBe(200)
    expect((await chat('m', { stream: true })).status).toBe(200)
    expect((await chat('c')).status).toBe(200)
    for (const model of ['fail-401', 'fail-429', 'fail-500']) expect((await chat(model)).status).toBeGreaterThanOrEqual(400)
    // The signed-in account: the live file answers, its 401 echoes the bearer token.
    expect((await asClient('/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': secrets.clientKey })).status).toBe(200)
    expect((await asClient('/v1/messages', { model: 'claude-haiku-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': secrets.clientKey })).status).toBeGreaterThanOrEqual(400)
    expect((await asClient(`/v1beta/models/m:generateContent?key=${secrets.clientKey}`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, {})).status).toBe(200)
    // Bad requests and wrong keys.
    expect((await asClient('/v1/chat/completions', '{not json')).status).toBe(400)
    expect((await asClient('/v1/chat/completions', { messages: [] })).status).toBe(400)
    expect((await asClient('/v1/chat/completions', { model: 'm', messages: [] }, { authorization: 'Bearer wrong-key-0000' })).status).toBe(401)
    expect((await asAdmin('GET', '/config', undefined, 'wrong-management-secret')).status).toBe(401)
    // Every request logged in full from here on.
    expect((await asAdmin('PUT', '/request-log', { value: true })).status).toBe(200)
    expect((await chat('m', { stream: true })).status).toBe(200)
    expect((await chat('fail-500')).status).toBeGreaterThanOrEqual(400)
    expect((await asClient('/v1/responses', { model: 'm', input: 'hi' })).status).toBe(200)

    // Management reads: config, credentials, files, usage, logs.
    for (const path of ['/config', '/config.yaml', '/api-keys', '/compat-provider', '/beta-api-key', '/credentials', '/auth-files', '/auth-files/models?name=beta-live.json', '/usage', '/usage/export', '/logs', '/request-error-logs']) {
      expect((await asAdmin('GET', path)).status).toBe(200)
    }
    for (const path of ['/metrics', '/healthz', '/v1/models']) expect((await send(path, { headers: { authorization: `Bearer ${secrets.clientKey}` } })).status).toBe(200)
    await asAdmin('PUT', '/request-log', { value: false })
    const errorLogs = JSON.parse((await asAdmin('GET', '/request-error-logs')).body).files as Array<{ name: string }>
    expect(errorLogs.length).toBeGreaterThan(0)
    for (const file of errorLogs) expect((await asAdmin('GET', `/request-error-logs/${file.name}`)).status).toBe(200)
    const ids = readdirSync(logsDir).map(name => /^(?:error|request)-\w+-(.+)\.log$/.exec(name)?.[1]).filter(Boolean)
    for (const id of ids) expect((await asAdmin('GET', `/request-log-by-id/${id}`)).status).toBe(200)
    expect(JSON.parse(seen.find(r => r.url.endsWith('/usage/export'))!.body).records.length).toBeGreaterThan(5)
  })

  it('finds none of them in any log file', () => {
    const files = filesUnder(logsDir)
    expect(files.some(file => file.endsWith('main.log'))).toBe(true)
    expect(files.some(file => /error-.+\.log$/.test(file))).toBe(true)
    expect(files.some(file => /request-.+\.log$/.test(file))).toBe(true)
    const found: string[] = []
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      for (const [name, secret] of Object.entries(secrets)) {
        const context = leaks(text, secret)
        if (context) found.push(`${name} in ${file}: …${context}…`)
      }
    }
    expect(found).toEqual([])
  })

  it('finds none of them in any response body or header (configured keys only in the config reads)', () => {
    expect(seen.length).toBeGreaterThan(30)
    const found: string[] = []
    for (const response of seen) {
      for (const [name, secret] of Object.entries(secrets)) {
        if (configHeld.has(secret) && configReads.test(response.url)) continue
        const context = leaks(`${response.headers}\n${response.body}`, secret)
        if (context) found.push(`${name} in ${response.url} (${response.status}): …${context}…`)
      }
    }
    expect(found).toEqual([])
  })

  it('the upstreams really were sent the secrets (the scan looks for strings that exist)', () => {
    const sent = [...compat.requests, ...beta.requests, ...oauth.requests].map(r => `${JSON.stringify(r.headers)} ${r.body}`).join('\n')
    for (const secret of [secrets.compatKey, secrets.betaKey, secrets.accessToken, secrets.expiredRefreshToken]) expect(sent).toContain(secret)
  })
})
