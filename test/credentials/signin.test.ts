import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from '../management/helpers.ts'

/** A mock OAuth server: authorization code + PKCE (S256), as the vendors run it. */
let oauth: MockUpstream
const codes = new Map<string, string>() // code -> code_challenge
let managed: ManagedProxy
let authDir: string
const idToken = (claims: Record<string, unknown>) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`

beforeAll(async () => {
  oauth = await startMockUpstream(async (request) => {
    const text = await request.text()
    const params = request.headers.get('content-type')?.includes('json') ? new URLSearchParams(JSON.parse(text)) : new URLSearchParams(text)
    const challenge = codes.get(params.get('code') ?? '')
    const verifier = params.get('code_verifier') ?? ''
    if (params.get('grant_type') !== 'authorization_code' || !challenge || createHash('sha256').update(verifier).digest('base64url') !== challenge) {
      return new Response(JSON.stringify({ error: 'invalid_grant', error_description: 'PKCE verification failed' }), { status: 400 })
    }
    return new Response(JSON.stringify({
      access_token: 'signed-in-token', refresh_token: 'signed-in-refresh', expires_in: 3600,
      id_token: idToken({ email: 'dev@example.test', 'https://api.openai.com/auth': { chatgpt_account_id: 'acct-1' } }),
    }), { headers: { 'content-type': 'application/json' } })
  })
  authDir = `/tmp/proxy-signin-${process.pid}-${Date.now()}`
  mkdirSync(authDir, { recursive: true })
  const clients = ['beta', 'gamma', 'alpha-cli', 'alpha', 'delta'].map(type => `  ${type}:\n    authorize-url: ${oauth.url}/authorize\n    token-url: ${oauth.url}/token\n    client-id: test-${type}\n`).join('')
  managed = await startManagedProxy(`${baseYaml}auth-dir: ${authDir}\noauth-clients:\n${clients}`)
})
afterAll(async () => {
  await managed.close()
  await oauth.close()
  rmSync(authDir, { recursive: true, force: true })
})

const management = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
})

/** Plays the browser: read the authorize URL, "approve", and come back with a code. */
async function approve(type: string) {
  const { status, url, state } = await (await management('GET', `/${type}-auth-url`)).json()
  expect(status).toBe('ok')
  const authorize = new URL(url)
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
  expect(authorize.searchParams.get('client_id')).toBe(`test-${type}`)
  expect(authorize.searchParams.get('state')).toBe(state)
  const code = `code-${type}-${Math.random()}`
  codes.set(code, authorize.searchParams.get('code_challenge')!)
  return { state, code, redirect: authorize.searchParams.get('redirect_uri')! }
}

describe('OAuth sign-in (browserless)', () => {
  it.each(['beta', 'gamma', 'alpha-cli', 'alpha', 'delta'])('%s: auth URL -> callback -> credential file, status followed to the end', async (type) => {
    const { state, code, redirect } = await approve(type)
    expect(redirect).toBe(`${managed.proxy.url}/${type}/callback`)
    expect(await (await management('GET', `/get-auth-status?state=${state}`)).json()).toEqual({ status: 'wait' })
    const callback = await fetch(`${redirect}?code=${code}&state=${state}`)
    expect(callback.status).toBe(200)
    expect(await callback.text()).toContain('Signed in')
    const result = await (await management('GET', `/get-auth-status?state=${state}`)).json()
    expect(result).toEqual({ status: 'ok', file: `${type}-dev@example.test.json` })
    const file = JSON.parse(readFileSync(join(authDir, result.file), 'utf8'))
    expect(file).toMatchObject({ type, access_token: 'signed-in-token', refresh_token: 'signed-in-refresh', email: 'dev@example.test' })
    if (type === 'gamma') expect(file.account_id).toBe('acct-1')
    expect(managed.proxy.proxy.kernel.credentials.some(c => c.id === `file:${result.file}`)).toBe(true)
  })

  it('a pasted callback URL completes a sign-in too (remote browsers)', async () => {
    rmSync(join(authDir, 'beta-dev@example.test.json'), { force: true })
    const { state, code, redirect } = await approve('beta')
    const result = await (await management('POST', '/oauth-callback', { url: `${redirect}?code=${code}&state=${state}` })).json()
    expect(result).toEqual({ status: 'ok', file: 'beta-dev@example.test.json' })
    expect(readdirSync(authDir)).toContain('beta-dev@example.test.json')
  })

  it('a wrong PKCE verifier, a refused consent and an unknown state end in error', async () => {
    const { state } = await approve('gamma')
    codes.set('forged', 'not-the-challenge')
    const forged = await (await management('POST', '/oauth-callback', { state, code: 'forged' })).json()
    expect(forged).toMatchObject({ status: 'error', error: expect.stringContaining('PKCE verification failed') })
    expect(await (await management('GET', `/get-auth-status?state=${state}`)).json()).toMatchObject({ status: 'error' })
    const refused = await approve('beta')
    const page = await fetch(`${refused.redirect}?error=access_denied&state=${refused.state}`)
    expect(page.status).toBe(400)
    expect(await page.text()).toContain('access_denied')
    expect((await fetch(`${managed.proxy.url}/beta/callback?code=x&state=nope`)).status).toBe(400)
    expect((await management('GET', '/get-auth-status?state=nope')).status).toBe(404)
  })
})
