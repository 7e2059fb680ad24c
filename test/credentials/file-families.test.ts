import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { startManagedProxy, baseYaml, type ManagedProxy } from '../management/helpers.ts'

/** Every family answers with a signed-in credential file (no API key configured for it). */
let gamma: MockUpstream
let alpha: MockUpstream
let beta: MockUpstream
let managed: ManagedProxy
let authDir: string

beforeAll(async () => {
  ;[gamma, alpha, beta] = await Promise.all([startMockUpstream(responsesMock), startMockUpstream(generateMock), startMockUpstream(messagesMock)])
  authDir = `/tmp/proxy-file-families-${process.pid}-${Date.now()}`
  mkdirSync(authDir, { recursive: true })
  const future = new Date(Date.now() + 3_600_000).toISOString()
  // The account endpoint's base path, as the real one is `.../backend-api/codex` + `/responses`.
  writeFileSync(join(authDir, 'gamma.json'), JSON.stringify({ type: 'gamma', access_token: 'gamma-account-token', account_id: 'acct-9', expiry: future, base_url: `${gamma.url}/v1` }))
  writeFileSync(join(authDir, 'alpha.json'), JSON.stringify({ type: 'alpha', access_token: 'alpha-account-token', expiry: future, base_url: alpha.url }))
  writeFileSync(join(authDir, 'beta.json'), JSON.stringify({ type: 'beta', access_token: 'beta-account-token', expiry: future, base_url: beta.url }))
  managed = await startManagedProxy(`${baseYaml}auth-dir: ${authDir}\n`)
})
afterAll(async () => {
  await managed.close()
  await Promise.all([gamma.close(), alpha.close(), beta.close()])
  rmSync(authDir, { recursive: true, force: true })
})

const chat = (model: string, stream = false) => fetch(`${managed.proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client-one', 'content-type': 'application/json' },
  body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'file creds' }] }),
})

describe('signed-in credential files per family', () => {
  it.each([false, true])('gamma account token (stream %s): Bearer, account id, responses path', async (stream) => {
    const response = await chat('gpt-5.1-codex', stream)
    expect(response.status).toBe(200)
    const text = await response.text()
    if (stream) expect(text.trim().endsWith('data: [DONE]')).toBe(true)
    else expect(JSON.parse(text).choices[0].message.content).toContain('You said: file creds')
    const sent = gamma.requests.at(-1)!
    expect(sent.url).toBe('/v1/responses')
    expect(sent.headers.authorization).toBe('Bearer gamma-account-token')
    expect(sent.headers['chatgpt-account-id']).toBe('acct-9')
  })

  it('alpha account token: Bearer on the public generateContent path', async () => {
    const response = await chat('gemini-2.5-flash')
    expect((await response.json()).choices[0].message.content).toContain('You said: file creds')
    const sent = alpha.requests.at(-1)!
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent')
    expect(sent.headers.authorization).toBe('Bearer alpha-account-token')
    expect(sent.headers['x-goog-api-key']).toBeUndefined()
  })

  it('beta account token: Bearer and the OAuth beta header', async () => {
    const response = await chat('claude-haiku-4-5')
    expect((await response.json()).choices[0].message.content).toContain('You said: file creds')
    expect(beta.requests.at(-1)!.headers['anthropic-beta']).toBe('oauth-2025-04-20')
  })
})
