import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from '../management/helpers.ts'

let beta: MockUpstream
let alpha: MockUpstream
let oauth: MockUpstream
let managed: ManagedProxy
let authDir: string
let refreshOk = true

const future = () => new Date(Date.now() + 3_600_000).toISOString()
const writeCred = (name: string, body: Record<string, unknown>) => writeFileSync(join(authDir, name), JSON.stringify(body))

beforeAll(async () => {
  beta = await startMockUpstream(messagesMock)
  alpha = await startMockUpstream(generateMock)
  oauth = await startMockUpstream(async (request) => {
    const text = await request.text()
    const form = request.headers.get('content-type')?.includes('json') ? new URLSearchParams(JSON.parse(text)) : new URLSearchParams(text)
    if (!refreshOk || form.get('grant_type') !== 'refresh_token' || form.get('client_id') !== 'test-client') {
      return new Response(JSON.stringify({ error: 'invalid_grant', error_description: 'refresh token revoked' }), { status: 400 })
    }
    return new Response(JSON.stringify({ access_token: `fresh-${form.get('refresh_token')}`, refresh_token: 'rotated', expires_in: 3600 }), { headers: { 'content-type': 'application/json' } })
  })
  const dir = `/tmp/proxy-cred-${process.pid}-${Date.now()}`
  authDir = join(dir, 'auths')
  mkdirSync(authDir, { recursive: true })
  writeCred('beta-account.json', { type: 'beta', access_token: 'beta-token-1', expiry: future(), email: 'dev@example.test', base_url: beta.url, attributes: { priority: '3' } })
  writeCred('expired.json', { type: 'beta', access_token: 'old', refresh_token: 'r1', expiry: new Date(Date.now() - 1000).toISOString(), base_url: beta.url })
  writeCred('alpha-cli.json', { type: 'alpha-cli', access_token: 'cli-token', expiry: future(), project_id: 'proj-42', base_url: alpha.url })
  writeFileSync(join(authDir, 'broken.json'), '{ not json')
  const yaml = baseYaml + `auth-dir: ${authDir}
oauth-model-alias:
  beta:
    - name: claude-sonnet-4-5
      alias: sonnet
      fork: true
  alpha-cli:
    - name: gemini-2.5-pro
      alias: cli-pro
oauth-excluded-models:
  beta: ["claude-opus-*"]
oauth-clients:
  beta:
    token-url: ${oauth.url}/token
    client-id: test-client
`
  managed = await startManagedProxy(yaml)
  await managed.proxy.proxy.kernel.services.credentialFiles!.refreshDue()
})
afterAll(async () => {
  await managed.close()
  await Promise.all([beta.close(), alpha.close(), oauth.close()])
  rmSync(join(authDir, '..'), { recursive: true, force: true })
})

const management = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
})
const messages = (model: string) => fetch(`${managed.proxy.url}/v1/messages`, {
  method: 'POST', headers: { 'x-api-key': 'client-one', 'content-type': 'application/json' },
  body: JSON.stringify({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] }),
})

describe('credential files', () => {
  it('a signed-in beta file answers with Bearer and the OAuth beta header; aliases with fork and exclusions apply', async () => {
    const response = await messages('sonnet')
    expect(response.status).toBe(200)
    const sent = beta.requests.at(-1)!
    expect(sent.headers.authorization).toMatch(/^Bearer (beta-token-1|fresh-r1)$/)
    expect(sent.headers['anthropic-beta']).toContain('oauth-2025-04-20')
    expect(sent.headers['x-api-key']).toBeUndefined()
    expect(JSON.parse(sent.body).model).toBe('claude-sonnet-4-5')
    const models = (await (await management('GET', '/auth-files/models?name=beta-account.json')).json()).models.map((m: { id: string }) => m.id)
    expect(models).toContain('sonnet')
    expect(models).toContain('claude-sonnet-4-5')
    expect(models.some((id: string) => id.startsWith('claude-opus-'))).toBe(false)
  })

  it('an expiring token is refreshed ahead of time and written back atomically', async () => {
    const file = JSON.parse(readFileSync(join(authDir, 'expired.json'), 'utf8'))
    expect(file).toMatchObject({ type: 'beta', access_token: 'fresh-r1', refresh_token: 'rotated', base_url: beta.url })
    expect(Date.parse(file.expiry)).toBeGreaterThan(Date.now())
  })

  it('a failed refresh blocks the credential with the reason', async () => {
    refreshOk = false
    writeCred('revoked.json', { type: 'beta', access_token: 'x', refresh_token: 'gone', expiry: 0, base_url: beta.url })
    await new Promise(resolve => setTimeout(resolve, 400))
    await managed.proxy.proxy.kernel.services.credentialFiles!.refreshDue()
    const { files } = await (await management('GET', '/auth-files')).json()
    expect(files.find((f: { name: string }) => f.name === 'revoked.json')).toMatchObject({ state: 'blocked', reason: expect.stringContaining('refresh token revoked') })
    refreshOk = true
  })

  it('alpha-cli files use the code-assist envelope with the project, answers unwrapped', async () => {
    const response = await fetch(`${managed.proxy.url}/v1beta/models/cli-pro:generateContent`, {
      method: 'POST', headers: { 'x-goog-api-key': 'client-one', 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }),
    })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.candidates[0].content.parts[0].text).toContain('You said: hello')
    expect(body.response).toBeUndefined()
    const sent = alpha.requests.at(-1)!
    expect(sent.url).toBe('/v1internal:generateContent')
    expect(JSON.parse(sent.body)).toMatchObject({ model: 'gemini-2.5-pro', project: 'proj-42', request: { contents: [{ role: 'user' }] } })
    expect(sent.headers.authorization).toBe('Bearer cli-token')
  })

  it('auth-files lists every file (an invalid one with its error), uploads and deletes; deleted -> disabled', async () => {
    const { files } = await (await management('GET', '/auth-files')).json()
    expect(files.find((f: { name: string }) => f.name === 'broken.json')).toMatchObject({ state: 'invalid', error: expect.stringContaining('not valid JSON') })
    expect(files.find((f: { name: string }) => f.name === 'beta-account.json')).toMatchObject({ type: 'beta', email: 'dev@example.test', priority: 3, state: 'ready' })
    expect(JSON.stringify(files)).not.toContain('beta-token-1')

    expect((await management('POST', '/auth-files?name=uploaded.json', { type: 'wizard' })).status).toBe(400)
    expect((await management('POST', '/auth-files?name=../evil.json', { type: 'beta' })).status).toBe(400)
    // Longer than a file name may be (with the temp file's suffix): a 400, not the file system's 500.
    const long = `${'n'.repeat(300)}.json`
    const refused = await management('POST', `/auth-files?name=${long}`, { type: 'beta', access_token: 'up', expiry: future(), base_url: beta.url })
    expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 400, body: { error: 'invalid file name: expected <name>.json' } })
    expect(await (await management('POST', `/auth-files?name=${'n'.repeat(195)}.json`, { type: 'beta', access_token: 'up', expiry: future(), base_url: beta.url })).json()).toEqual({ status: 'ok', name: `${'n'.repeat(195)}.json` })
    expect((await management('DELETE', `/auth-files?name=${'n'.repeat(195)}.json`)).status).toBe(200)
    expect(await (await management('POST', '/auth-files?name=uploaded.json', { type: 'beta', access_token: 'up', expiry: future(), base_url: beta.url })).json()).toEqual({ status: 'ok', name: 'uploaded.json' })
    expect(managed.proxy.proxy.kernel.credentials.some(c => c.id === 'file:uploaded.json')).toBe(true)

    expect(await (await management('DELETE', '/auth-files?name=uploaded.json')).json()).toEqual({ status: 'ok', removed: 1 })
    const after = (await (await management('GET', '/credentials')).json()).credentials.find((c: { id: string }) => c.id === 'file:uploaded.json')
    expect(after.state).toBe('disabled')
    expect((await management('DELETE', '/auth-files?name=missing.json')).status).toBe(404)
  })

  it('a file added on disk while serving is picked up by the watcher', async () => {
    writeCred('late.json', { type: 'beta', access_token: 'late-token', expiry: future(), base_url: beta.url, attributes: { priority: '9' } })
    await expect.poll(() => managed.proxy.proxy.kernel.credentials.some(c => c.id === 'file:late.json'), { timeout: 3000 }).toBe(true)
    await messages('claude-haiku-4-5')
    expect(beta.requests.at(-1)!.headers.authorization).toBe('Bearer late-token')
  })
})
