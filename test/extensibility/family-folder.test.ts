import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startProxy, type RunningProxy } from '../../core/runtime/start.ts'
import { ConfigError } from '../../core/config/validate.ts'
import { silentLogger } from '../helpers/proxy-server.ts'

/**
 * A complete provider family from one folder outside `providers/`, in a temp project, with no edit
 * anywhere else: it imports only the public entry (`model-proxy`), and brings its config key, its
 * default base URL, catalog, sign-in, hosts, test call and payload protocol on its `ProviderDef`.
 */
const family = {
  'catalog.ts': `import { defineModels } from 'model-proxy'
export const emberModels = defineModels([{ id: 'ember-large', contextWindow: 32_000, maxOutput: 4_096 }, { id: 'ember-small', contextWindow: 8_000, maxOutput: 1_024 }])
`,
  'provider.ts': `import { defineProvider, keyEntryCredentials, keyListConfig } from 'model-proxy'
import { emberModels } from './catalog.ts'

export const emberBaseUrl = process.env.EMBER_BASE_URL ?? 'https://api.ember.example'

/** Ember speaks chat completions on its own path, with its key in x-ember-key. */
export const ember = defineProvider({
  family: 'ember',
  label: 'ember (chat, own path)',
  format: 'chat',
  models: emberModels,
  baseUrl: emberBaseUrl,
  config: keyListConfig('ember-api-key'),
  credentialFile: { oauth: { 'authorize-url': 'https://login.ember.example/authorize', 'token-url': 'https://login.ember.example/token', 'client-id': 'ember-cli' } },
  hosts: ['api.ember.example'],
  testCall: { path: '/v2/models' },
  payloadProtocol: 'proto_ember',
  credentials: (_config, entries) => keyEntryCredentials('ember', entries, emberBaseUrl, emberModels.map(model => model.id)),
  buildRequest: ({ credential, body }) => ({
    url: credential.baseUrl + '/v2/chat', method: 'POST', proxyUrl: credential.proxyUrl, json: body,
    headers: { 'content-type': 'application/json', 'x-ember-key': credential.apiKey ?? '', ...credential.headers },
  }),
})
`,
  'index.ts': `import { defineProxyPlugin } from 'model-proxy'
import { ember } from './provider.ts'

export default defineProxyPlugin({ name: 'ember', providers: [ember] })
`,
}

interface Seen { path: string; headers: Record<string, unknown>; body: Record<string, any> }
let upstream: Server
let upstreamUrl: string
const seen: Seen[] = []
let dir: string
let running: RunningProxy | undefined

/** The scripted ember upstream: a chat completion naming the model it was asked for. */
function startEmber(): Promise<void> {
  upstream = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => { text += chunk })
    req.on('end', () => {
      const body = text ? JSON.parse(text) : {}
      seen.push({ path: req.url ?? '', headers: req.headers, body })
      res.setHeader('content-type', 'application/json')
      if (req.headers['x-ember-key'] !== 'ember-secret-1') return void res.writeHead(401).end('{"error":{"message":"bad key"}}')
      res.end(JSON.stringify({ id: 'chatcmpl-e', object: 'chat.completion', created: 1, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: `ember says hi (${body.temperature})` }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }))
    })
  })
  return new Promise(resolve => upstream.listen(0, '127.0.0.1', () => {
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    resolve()
  }))
}

const yaml = (entries: string) => `host: 127.0.0.1
api-keys: [client-key]
remote-management:
  secret-key: admin-secret
ember-api-key:
${entries}
payload:
  override:
    - models: [{ name: 'ember-*', protocol: proto_ember }]
      params: { temperature: 0.125 }
`

beforeAll(async () => {
  await startEmber()
  process.env.EMBER_BASE_URL = upstreamUrl
  dir = mkdtempSync(join(tmpdir(), 'family-folder-'))
  mkdirSync(join(dir, 'ember'))
  for (const [name, text] of Object.entries(family)) writeFileSync(join(dir, 'ember', name), text)
  writeFileSync(join(dir, 'proxy.config.ts'), `export default { config: './config.yaml', plugins: ['./ember/index.ts'], storage: { driver: 'memory' } }\n`)
})
afterAll(async () => {
  await running?.close()
  await new Promise(resolve => upstream.close(resolve))
  rmSync(dir, { recursive: true, force: true })
  delete process.env.EMBER_BASE_URL
})

describe('a provider family from one folder outside providers/', () => {
  it('its config key is validated at load time with the rest: a bad entry stops the start, naming the path', async () => {
    writeFileSync(join(dir, 'config.yaml'), yaml(`  - api-key: ''`))
    const error = await startProxy({ cwd: dir, port: 0, logger: silentLogger }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).issues).toContain('ember-api-key[0].api-key: must be a non-empty key')
  })

  it('serves: credentials from its key, its catalog in /v1/models, a request to its upstream, its payload protocol', async () => {
    writeFileSync(join(dir, 'config.yaml'), yaml(`  - api-key: ember-secret-1`))
    running = await startProxy({ cwd: dir, port: 0, logger: silentLogger })
    const client = { authorization: 'Bearer client-key', 'content-type': 'application/json' }

    const listed = await (await fetch(`${running.url}/v1/models`, { headers: client })).json() as { data: Array<{ id: string }> }
    expect(listed.data.map(model => model.id)).toEqual(expect.arrayContaining(['ember-large', 'ember-small']))

    const response = await fetch(`${running.url}/v1/chat/completions`, { method: 'POST', headers: client, body: JSON.stringify({ model: 'ember-large', messages: [{ role: 'user', content: 'hello' }] }) })
    expect(response.status).toBe(200)
    const answer = await response.json() as { choices: Array<{ message: { content: string } }> }
    // The override rule named the family's own protocol: the upstream got its temperature.
    expect(answer.choices[0]!.message.content).toBe('ember says hi (0.125)')
    expect(seen.at(-1)!.path).toBe('/v2/chat')
    expect(seen.at(-1)!.headers['x-ember-key']).toBe('ember-secret-1')
  })

  it('the management API lists the family with its metadata, and serves its config key and sign-in', async () => {
    const admin = { authorization: 'Bearer admin-secret' }
    const { providers } = await (await fetch(`${running!.url}/v0/management/providers`, { headers: admin })).json() as { providers: Array<Record<string, any>> }
    const ember = providers.find(provider => provider.family === 'ember')
    expect(ember).toMatchObject({
      label: 'ember (chat, own path)', format: 'chat', 'config-key': 'ember-api-key', editor: 'key-entries', identity: 'api-key',
      models: ['ember-large', 'ember-small'], 'credential-file-type': 'ember', 'sign-in': true, 'test-call': { path: '/v2/models' },
      'payload-protocol': 'proto_ember', hosts: ['api.ember.example'], 'default-base-url': upstreamUrl,
      'wire-format': 'chat completions (/v1/chat/completions)',
      description: `ember: chat completions (/v1/chat/completions) wire format, default endpoint ${upstreamUrl}`,
      'key-kind': `a key for the chat completions API at ${upstreamUrl}`,
    })
    const list = await (await fetch(`${running!.url}/v0/management/ember-api-key`, { headers: admin })).json() as Record<string, Array<Record<string, unknown>>>
    expect(list['ember-api-key']![0]!['api-key']).toBe('ember-secret-1')
    const signIn = await (await fetch(`${running!.url}/v0/management/ember-auth-url`, { headers: admin })).json() as { url: string }
    expect(new URL(signIn.url).host).toBe('login.ember.example')
    // The family's test call, through api-call, with its own auth header.
    const tested = await (await fetch(`${running!.url}/v0/management/api-call`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify({ credential: 'ember:0', method: 'GET', path: ember!['test-call'].path }) })).json() as { status: number }
    expect(tested.status).toBe(200)
    expect(seen.at(-1)).toMatchObject({ path: '/v2/models', headers: { 'x-ember-key': 'ember-secret-1' } })
  })
})
