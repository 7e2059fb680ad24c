import { describe, expect, it } from 'vitest'
import { withOAuth } from './oauth-fetch.ts'
import { basicAuthorization, OAuthTokenSource, renewMarginMs, tokenRequestBody } from './oauth-token.ts'
import { mcpServerSchema, type OAuthClientConfig } from './schema.ts'

const oauth = (extra: Partial<OAuthClientConfig> = {}): OAuthClientConfig => ({ grant: 'client_credentials', 'token-url': 'http://auth.test/token', 'client-id': 'id', 'client-secret': 's3cret', 'client-auth': 'basic', ...extra })

describe('token request', () => {
  it.each([
    [oauth(), undefined, { grant_type: 'client_credentials' }],
    [oauth({ scope: 'a b', audience: 'api' }), 'https://mcp.test/mcp', { grant_type: 'client_credentials', scope: 'a b', audience: 'api', resource: 'https://mcp.test/mcp' }],
    [oauth({ 'client-auth': 'body' }), undefined, { grant_type: 'client_credentials', client_id: 'id', client_secret: 's3cret' }],
  ])('form %#', (config, resource, form) => {
    expect(Object.fromEntries(tokenRequestBody(config, resource))).toEqual(form)
  })

  it('encodes id and secret before Basic (RFC 6749 2.3.1)', () => {
    const header = basicAuthorization('my id', 'p:ss&wörd')
    expect(Buffer.from(header.slice(6), 'base64').toString()).toBe('my+id:p%3Ass%26w%C3%B6rd')
  })

  it.each([[3_600_000, 60_000], [10_000, 1000], [1000, 100]])('renews a token living %i ms %i ms early', (lifetime, margin) => {
    expect(renewMarginMs(lifetime)).toBe(margin)
  })
})

describe('oauth in the server schema', () => {
  const server = (auth: object, extra: object = {}) => mcpServerSchema.safeParse({ name: 'r', url: 'https://mcp.test/mcp', oauth: auth, ...extra })
  it('takes a token URL or an issuer, not both, not neither', () => {
    expect(server({ 'token-url': 'https://a.test/t', 'client-id': 'i', 'client-secret': 's' }).success).toBe(true)
    expect(server({ issuer: 'https://a.test', 'client-id': 'i', 'client-secret': 's' }).success).toBe(true)
    expect(server({ 'client-id': 'i', 'client-secret': 's' }).success).toBe(false)
    expect(server({ issuer: 'https://a.test', 'token-url': 'https://a.test/t', 'client-id': 'i', 'client-secret': 's' }).success).toBe(false)
  })
  it('is strict, and is not combined with a bearer token', () => {
    expect(server({ 'token-url': 'https://a.test/t', 'client-id': 'i', 'client-secret': 's', secret: 'typo' }).success).toBe(false)
    expect(server({ 'token-url': 'https://a.test/t', 'client-id': 'i', 'client-secret': 's', grant: 'password' }).success).toBe(false)
    expect(server({ 'token-url': 'https://a.test/t', 'client-id': 'i', 'client-secret': 's' }, { 'bearer-token': 't' }).success).toBe(false)
  })
})

describe('withOAuth', () => {
  /** A token endpoint handing out t1, t2, ... and a server accepting only the tokens in `valid`. */
  function setup(valid: (token: string) => boolean) {
    let issued = 0
    const sent: string[] = []
    const tokenFetch = (async () => Response.json({ access_token: `t${++issued}`, expires_in: 3600 })) as typeof fetch
    const source = new OAuthTokenSource(oauth(), 'https://mcp.test/mcp', tokenFetch)
    const server = async (_input: string | URL, init?: RequestInit) => {
      const token = new Headers(init?.headers).get('authorization')!.slice(7)
      sent.push(token)
      return new Response(null, { status: valid(token) ? 200 : 401 })
    }
    return { fetch: withOAuth(source, server), sent, issued: () => issued }
  }

  it('keeps one token over requests', async () => {
    const { fetch, sent, issued } = setup(() => true)
    await fetch('https://mcp.test/mcp', { method: 'POST', body: '{}' })
    await fetch('https://mcp.test/mcp', { method: 'POST', body: '{}' })
    expect(sent).toEqual(['t1', 't1'])
    expect(issued()).toBe(1)
  })

  it('on a 401 gets one new token and sends once more; a second 401 is the answer', async () => {
    const renewed = setup(token => token !== 't1')
    expect((await renewed.fetch('https://mcp.test/mcp', { body: '{}' })).status).toBe(200)
    expect(renewed.sent).toEqual(['t1', 't2'])
    const refusing = setup(() => false)
    expect((await refusing.fetch('https://mcp.test/mcp', { body: '{}' })).status).toBe(401)
    expect(refusing.sent).toEqual(['t1', 't2'])
  })
})

describe('OAuthTokenSource errors', () => {
  it.each(['basic', 'body'] as const)('never quote the client secret, when the token endpoint quotes what it got (client auth %s)', async (auth) => {
    const secret = 'client-secret-0123456789/abc+def'
    // The endpoint quotes the request: the form (secret form-encoded) and Basic (the form-encoded secret in base64).
    const tokenFetch = (async (_url: string, init?: RequestInit) => Response.json({ error: 'invalid_client', error_description: `got ${new Headers(init?.headers).get('authorization')} ${String(init?.body)}` }, { status: 401 })) as typeof fetch
    const source = new OAuthTokenSource(oauth({ 'client-secret': secret, 'client-auth': auth }), 'https://mcp.test/mcp', tokenFetch)
    const message = await source.token().then(() => '', (error: Error) => error.message)
    expect(message).toContain('invalid_client')
    expect(message).not.toContain('0123456789')
    expect(message).not.toContain(Buffer.from(`id:${encodeURIComponent(secret)}`).toString('base64').slice(4, 24))
  })
})
