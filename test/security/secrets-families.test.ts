import { generateKeyPairSync } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { createProxy, type Proxy } from '../../core/app.ts'
import { listen, type RunningServer } from '../../core/runtime/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'
import { deltaMock } from '../../playground/mock-upstream/delta.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { askEnvelope, openSocket } from '../helpers/ws-client.ts'
import { clientCall, clientFormats, type ClientFormat } from '../helpers/client-formats.ts'
import { capturingLogger, echoes, echoing, fileSurfaces, plant, recordingFetch, scan, type Seen } from './leak-scan.ts'

/**
 * A secret in every place one lives, for every upstream family (API keys, signed-in account files, a
 * service account and the tokens it mints, the partner key), upstreams that echo what they were sent,
 * and traffic of every client format, streamed and not; then every surface a client, an operator or a
 * log reader sees is scanned for each secret, whole or in pieces, plain, URL- or base64-encoded.
 */
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })
const secrets = {
  clientKey: plant('sk-client'),
  managementSecret: plant('mgmt'),
  compatKey: plant('up-compat'),
  compatHeader: plant('org-token'),
  betaKey: plant('up-beta'),
  gammaKey: plant('up-gamma'),
  alphaKey: plant('up-alpha'),
  deltaKey: plant('up-delta'),
  partnerKey: plant('pk-partner'),
  gammaAccess: plant('gamma-access'),
  gammaRefresh: plant('gamma-refresh'),
  gammaOldRefresh: plant('gamma-old-refresh'),
  minted: plant('sa-minted'),
  // The key's body (the PEM's base64 lines): any piece of it is the key.
  privateKey: privateKey.split('\n').slice(1, -2).join(''),
}
/** Held in the YAML: the config reads return them by design (docs/security.md, Secrets). */
const configHeld = new Set(['clientKey', 'compatKey', 'compatHeader', 'betaKey', 'gammaKey', 'alphaKey', 'deltaKey', 'partnerKey'])
const configReads = /\/v0\/management\/(config|config\.yaml|api-keys|compat-provider|(alpha|beta|gamma|delta)-api-key)( |$)/

const models = { compat: 'via-compat', beta: 'via-beta', gamma: 'via-gamma', alpha: 'via-alpha', delta: 'via-delta', gammaFile: 'via-gamma-file', deltaSa: 'via-delta-sa' }
const sse = (event: string | undefined, data: unknown) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`
const streamErrors = {
  chat: (said: string) => sse(undefined, { error: { message: `bad key ${said}`, type: 'invalid_request_error' } }),
  messages: (said: string) => sse('error', { type: 'error', error: { type: 'authentication_error', message: `bad key ${said}` } }),
  responses: (said: string) => sse('error', { type: 'error', code: 'invalid_api_key', message: `bad key ${said}` }),
  generate: (said: string) => sse(undefined, { error: { code: 401, message: `bad key ${said}`, status: 'UNAUTHENTICATED' } }),
}

let upstreams: Record<'compat' | 'beta' | 'gamma' | 'alpha' | 'delta' | 'partner' | 'tokens', MockUpstream>
let receiver: OtlpReceiver
let proxy: Proxy
let server: RunningServer
let root: string
const seen: Seen[] = []
const logged: string[] = []
/** What the process printed (the access log writes to stdout itself). */
const printed: string[] = []
const write = process.stdout.write.bind(process.stdout)
let send: ReturnType<typeof recordingFetch>
const admin = (method: string, path: string, body?: unknown) =>
  send(`/v0/management${path}`, { method, headers: { authorization: `Bearer ${secrets.managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
const call = (format: ClientFormat, model: string, stream: boolean, said = 'hi') => {
  const { path, body } = clientCall(format, model, stream, said)
  return send(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets.clientKey}` }, body: JSON.stringify(body) })
}

beforeAll(async () => {
  const [compat, beta, gamma, alpha, delta, partner] = await Promise.all([
    startMockUpstream(echoing(openaiMock, streamErrors.chat)),
    startMockUpstream(echoing(messagesMock, streamErrors.messages)),
    startMockUpstream(echoing(responsesMock, streamErrors.responses)),
    startMockUpstream(echoing(generateMock, streamErrors.generate)),
    startMockUpstream(echoing(deltaMock, streamErrors.generate)),
    // The partner's own server: quotes the partner key it was sent, in the body and a header.
    startMockUpstream(request => new Response(`partner saw ${request.headers.get('authorization')} ${request.headers.get('x-api-key')}`, { status: 403, headers: { 'x-seen': `${request.headers.get('authorization')}` } })),
  ])
  // The token endpoint: mints the service account's token; refuses a refresh quoting the whole request.
  const tokens = await startMockUpstream(async (request) => {
    const form = await request.text()
    if (form.includes('jwt-bearer')) return Response.json({ access_token: secrets.minted, expires_in: 3600, token_type: 'Bearer' })
    return new Response(`invalid_grant for ${form} ${decodeURIComponent(form)}`, { status: 400 })
  })
  upstreams = { compat: compat!, beta: beta!, gamma: gamma!, alpha: alpha!, delta: delta!, partner: partner!, tokens }
  receiver = await startOtlpReceiver()
  root = mkdtempSync(join(tmpdir(), 'proxy-leak-families-'))
  const authDir = join(root, 'auths')
  mkdirSync(authDir)
  const future = new Date(Date.now() + 86_400_000).toISOString()
  writeFileSync(join(authDir, 'gamma-live.json'), JSON.stringify({ type: 'gamma', access_token: secrets.gammaAccess, refresh_token: secrets.gammaRefresh, expiry: future, email: 'dev@example.com', account_id: 'acct-1', base_url: `${gamma!.url}/v1` }))
  writeFileSync(join(authDir, 'gamma-expired.json'), JSON.stringify({ type: 'gamma', access_token: 'gamma-old-access-000000', refresh_token: secrets.gammaOldRefresh, expiry: new Date(Date.now() - 60_000).toISOString(), email: 'old@example.com', base_url: gamma!.url }))
  writeFileSync(join(authDir, 'robot.json'), JSON.stringify({ type: 'delta', project_id: 'proj-7', location: 'europe-west4', base_url: delta!.url, service_account: { client_email: 'robot@proj.iam.example.test', private_key: privateKey, token_uri: `${tokens.url}/token` } }))
  const config = {
    host: '127.0.0.1',
    'api-keys': [secrets.clientKey],
    'remote-management': { 'secret-key': secrets.managementSecret },
    'access-log': 'json',
    'logging-to-file': true,
    'request-log': true,
    'usage-statistics-enabled': true,
    'passthrough-headers': true,
    'request-retry': 0,
    'logs-dir': join(root, 'logs'),
    'auth-dir': authDir,
    recorder: { mode: 'all' },
    otel: { endpoint: receiver.url },
    'oauth-clients': { gamma: { 'token-url': `${tokens.url}/token` } },
    'oauth-model-alias': { gamma: [{ name: 'gpt-5.1-codex', alias: models.gammaFile }], delta: [{ name: 'gemini-2.5-pro', alias: models.deltaSa }] },
    partner: { 'upstream-url': partner!.url, 'upstream-api-key': secrets.partnerKey },
    'compat-provider': [{ name: 'echo', 'base-url': `${compat!.url}/v1`, headers: { 'x-org-token': secrets.compatHeader }, 'api-key-entries': [{ 'api-key': secrets.compatKey }], models: [{ name: 'mock-gpt', alias: models.compat }] }],
    'beta-api-key': [{ 'api-key': secrets.betaKey, 'base-url': beta!.url, models: [{ name: 'mock-claude', alias: models.beta }] }],
    'gamma-api-key': [{ 'api-key': secrets.gammaKey, 'base-url': `${gamma!.url}/v1`, models: [{ name: 'mock-codex', alias: models.gamma }] }],
    'alpha-api-key': [{ 'api-key': secrets.alphaKey, 'base-url': alpha!.url, models: [{ name: 'mock-gemini', alias: models.alpha }] }],
    'delta-api-key': [{ 'api-key': secrets.deltaKey, 'base-url': delta!.url, models: [{ name: 'mock-gemini', alias: models.delta }], 'excluded-models': ['gemini-*'] }],
  }
  const configPath = join(root, 'config.yaml')
  writeFileSync(configPath, stringify(config))
  const storage = await createProxyStorage({ driver: 'fs', base: join(root, 'data') })
  proxy = await createProxy({ config: validateConfig(config), logger: capturingLogger(logged) as never, configPath, storage })
  server = await listen(() => proxy, proxy.kernel.config, { port: 0, host: '127.0.0.1' })
  send = recordingFetch(server.url, seen)
  // Kept, and not shown: hundreds of access-log lines.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => { printed.push(String(chunk)); return String(chunk).startsWith('{"time"') || write(chunk, ...rest) }) as typeof process.stdout.write
  await proxy.kernel.services.credentialFiles!.refreshDue().catch(() => {})
}, 60_000)
afterAll(async () => {
  process.stdout.write = write
  await server?.close()
  await proxy?.close().catch(() => {})
  await Promise.all([...Object.values(upstreams ?? {}).map(upstream => upstream.close()), receiver?.close()])
  rmSync(root, { recursive: true, force: true })
})

/** Answers of a `/v1/responses` socket to one `response.create`, up to its end. */
async function overSocket(model: string, said: string): Promise<string> {
  const socket = await openSocket(`${server.url.replace('http', 'ws')}/v1/responses`, { authorization: `Bearer ${secrets.clientKey}` })
  try {
    return await new Promise<string>((resolve) => {
      const messages: string[] = []
      const timer = setTimeout(() => resolve(messages.join('\n')), 10_000)
      socket.on('message', (data) => {
        messages.push(data.toString())
        if (/"type":"(response\.completed|response\.failed|error)"/.test(data.toString())) { clearTimeout(timer); resolve(messages.join('\n')) }
      })
      socket.send(JSON.stringify({ type: 'response.create', model, input: said }))
    })
  } finally { socket.close() }
}

describe('no secret of any family reaches a client, an operator read, a log, the recorder or a trace', () => {
  it('drives every family in every client format, with upstreams that echo their credentials', async () => {
    const statuses: Record<string, number> = {}
    for (const model of Object.values(models)) {
      for (const format of clientFormats) {
        for (const stream of format === 'generate-array' ? [true] : [false, true]) statuses[`${model} ${format} ${stream}`] = (await call(format, model, stream)).status
        for (const echo of echoes) {
          if (echo === 'echo-stream-error' && format !== 'chat' && format !== 'generate-sse') continue
          for (const stream of echo === 'echo-stream-error' ? [true] : [false, true]) await call(format, model, stream, echo)
        }
      }
      // Token counting and the socket path.
      await send('/v1/messages/count_tokens', { method: 'POST', headers: { 'x-api-key': secrets.clientKey, 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'echo-401' }] }) })
      await send(`/v1beta/models/${model}:countTokens?key=${encodeURIComponent(secrets.clientKey)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'echo-401' }] }] }) })
      for (const said of ['hi', 'echo-401', 'echo-200', 'echo-stream-error']) seen.push({ where: `socket /v1/responses ${model} ${said}`, text: await overSocket(model, said) })
    }
    // Every family answered ordinary traffic (the scan looks at real answers).
    for (const path of ['/v1/models', '/v1beta/models', '/v1/models?key=wrong']) await send(path, { headers: { authorization: `Bearer ${secrets.clientKey}` } })
    // The envelope socket, keyed in its URL, to a family that echoes its key.
    const ws = await openSocket(`${server.url.replace('http', 'ws')}/v1/ws?key=${encodeURIComponent(secrets.clientKey)}`)
    try {
      for (const said of ['hi', 'echo-401', 'echo-200']) {
        const replies = await askEnvelope(ws, { id: said, path: '/v1/chat/completions', body: { model: models.compat, stream: said === 'echo-200', messages: [{ role: 'user', content: said }] } })
        seen.push({ where: `socket /v1/ws ${said}`, text: JSON.stringify(replies) })
      }
      expect(seen.find(s => s.where === 'socket /v1/ws hi')!.text).toContain('You said: hi')
    } finally { ws.close() }
    await admin('POST', '/route-preview', { request: { model: models.alpha, messages: [] }, headers: { authorization: `Bearer ${secrets.clientKey}` }, 'client-key': secrets.clientKey })
    // Wrong keys, in every place a client puts one.
    await send(`/v1beta/models/${models.alpha}:generateContent?key=${encodeURIComponent(`${secrets.clientKey}x`)}`, { method: 'POST', body: '{}' })
    await send('/v1/messages', { method: 'POST', headers: { 'x-api-key': `${secrets.managementSecret}` }, body: '{}' })
    // The partner's proxied routes.
    for (const path of ['/api/user/me', '/api/internal/x?key=1']) await send(path, { headers: { authorization: `Bearer ${secrets.clientKey}` } })

    // Every operator read that is not documented to return a secret.
    const reads = ['/usage', '/usage/export', '/usage/series', '/logs', '/request-error-logs', '/credentials', '/auth-files', '/routing', '/status', '/models', '/unpriced-models', '/requests?limit=500']
    for (const path of reads) await admin('GET', path)
    for (const family of Object.keys(models)) await admin('POST', '/route-preview', { model: models[family as keyof typeof models], messages: [{ role: 'user', content: 'hi' }] })
    const records = JSON.parse(seen.find(s => s.where.startsWith('GET /v0/management/requests '))!.text.split('\n').slice(-1)[0]!).requests as Array<{ id: string }>
    expect(records.length).toBeGreaterThan(100)
    for (const { id } of records) {
      await admin('GET', `/requests/${id}`)
      await admin('GET', `/requests/${id}/fixture`)
    }
    for (const file of ['gamma-live.json', 'robot.json']) await admin('GET', `/auth-files/models?name=${file}`)
    for (const path of ['/metrics', '/management.html', '/healthz', '/']) await send(path)
    // Every family answered ordinary traffic (the scan looks at real answers).
    expect(Object.entries(statuses).filter(([, status]) => status !== 200)).toEqual([])
  }, 240_000)

  it('finds no secret in any answer, header or operator read (configured keys only in the config reads)', () => {
    const found = scan(seen, secrets, (where, name) => configHeld.has(name) && configReads.test(where))
    expect(found).toEqual([])
  })

  it('finds no secret in a log file or a log line', () => {
    const files = fileSurfaces(join(root, 'logs'))
    expect(files.length).toBeGreaterThan(10)
    expect(printed.join('').split('\n').filter(line => line.startsWith('{"time"')).length).toBeGreaterThan(100)
    expect(scan([...files, { where: 'logger', text: logged.join('\n') }, { where: 'stdout', text: printed.join('') }], secrets)).toEqual([])
  })

  it('finds no secret in an exported span', async () => {
    await server.close()
    await proxy.close()
    expect(receiver.spans.length).toBeGreaterThan(50)
    expect(scan(receiver.spans.map(span => ({ where: `span ${span.name}`, text: JSON.stringify(span) })), secrets)).toEqual([])
  })

  it('finds no secret in the storage (recorder records, routing state, response chains)', () => {
    const stored = fileSurfaces(join(root, 'data'))
    expect(stored.length).toBeGreaterThan(0)
    expect(scan(stored, secrets)).toEqual([])
  })

  it('the upstreams really were sent the secrets (the scan looks for strings that exist)', () => {
    const sent = Object.values(upstreams).flatMap(upstream => upstream.requests).map(r => `${JSON.stringify(r.headers)} ${r.url} ${r.body}`).join('\n')
    for (const name of ['compatKey', 'compatHeader', 'betaKey', 'gammaKey', 'alphaKey', 'deltaKey', 'partnerKey', 'gammaAccess', 'gammaOldRefresh', 'minted'] as const) expect(sent.includes(secrets[name]) || sent.includes(encodeURIComponent(secrets[name])), name).toBe(true)
  })
})
