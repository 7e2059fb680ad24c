import { buildDiscoveryUrls } from '@modelcontextprotocol/sdk/client/auth.js'
import { maskValues } from 'model-proxy/kit/access'
import type { OAuthClientConfig } from './schema.ts'

type Fetch = typeof fetch

interface CachedToken {
  value: string
  /** Epoch ms after which it is fetched again (shortly before it expires); absent: until a 401. */
  renewAt?: number
}

/** How long before its expiry a token is renewed: a tenth of its life, at most a minute. */
export const renewMarginMs = (lifetimeMs: number) => Math.min(60_000, lifetimeMs / 10)

/** The form of a client credentials token request (RFC 6749 §4.4), client auth in the body when asked. */
export function tokenRequestBody(config: OAuthClientConfig, resource: string | undefined): URLSearchParams {
  const form = new URLSearchParams({ grant_type: 'client_credentials' })
  if (config.scope) form.set('scope', config.scope)
  if (config.audience) form.set('audience', config.audience)
  if (resource) form.set('resource', resource)
  if (config['client-auth'] === 'body') {
    form.set('client_id', config['client-id'])
    form.set('client_secret', config['client-secret'])
  }
  return form
}

/** HTTP Basic client authentication (RFC 6749 §2.3.1: id and secret form-encoded first). */
export function basicAuthorization(clientId: string, secret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2)
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`
}

/**
 * The access token the proxy holds for one remote MCP server: fetched with the client credentials
 * grant, cached until shortly before it expires, fetched again when the server answers 401. One fetch
 * at a time; its errors name the token endpoint and the OAuth error, never the secret.
 */
export class OAuthTokenSource {
  private cached?: CachedToken
  private pending?: Promise<string>
  private tokenUrl?: string

  constructor(private readonly config: OAuthClientConfig, private readonly serverUrl: string, private readonly fetchFn: Fetch = fetch) {}

  /** The token held now, if any (masked wherever the server's text is shown). */
  get current(): string | undefined { return this.cached?.value }

  /** A valid token: the cached one, or a new one when there is none or it is about to expire. */
  async token(): Promise<string> {
    const cached = this.cached
    if (cached && (cached.renewAt === undefined || Date.now() < cached.renewAt)) return cached.value
    this.pending ??= this.fetchToken().finally(() => { this.pending = undefined })
    return this.pending
  }

  /** The server refused `token`: forget it (unless a newer one has replaced it already). */
  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined
  }

  private async fetchToken(): Promise<string> {
    const config = this.config
    const url = await this.endpoint()
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
    if (config['client-auth'] === 'basic') headers.authorization = basicAuthorization(config['client-id'], config['client-secret'])
    const resource = config.resource === false ? undefined : (config.resource ?? this.serverUrl)
    let response: Response
    try {
      response = await this.fetchFn(url, { method: 'POST', headers, body: tokenRequestBody(config, resource), signal: AbortSignal.timeout(30_000) })
    } catch (error) {
      throw this.failure(`could not reach the token endpoint ${url}: ${(error as Error).message}`)
    }
    const text = await response.text()
    const body = parseJson(text)
    if (!response.ok) {
      const oauthError = typeof body?.error === 'string' ? `: ${body.error}${typeof body.error_description === 'string' ? ` (${body.error_description})` : ''}` : ''
      throw this.failure(`the token endpoint ${url} refused the client credentials of ${config['client-id']} (HTTP ${response.status}${oauthError})`)
    }
    const value = body?.access_token
    if (typeof value !== 'string' || !value) throw this.failure(`the token endpoint ${url} answered without an access_token`)
    const type = body?.token_type
    if (typeof type === 'string' && type.toLowerCase() !== 'bearer') throw this.failure(`the token endpoint ${url} issued a ${type} token, not a bearer token`)
    const lifetimeMs = Number(body?.expires_in) * 1000
    this.cached = { value, renewAt: lifetimeMs > 0 ? Date.now() + lifetimeMs - renewMarginMs(lifetimeMs) : undefined }
    return value
  }

  /** The configured token URL, or the one the configured issuer's metadata names (looked up once). */
  private async endpoint(): Promise<string> {
    if (this.config['token-url']) return this.config['token-url']
    this.tokenUrl ??= await this.discover(this.config.issuer!)
    return this.tokenUrl
  }

  /**
   * The token endpoint in the issuer's metadata (RFC 8414, then OpenID discovery, at the SDK's
   * well-known URLs). Read leniently: a client-credentials-only server may omit the other endpoints.
   */
  private async discover(issuer: string): Promise<string> {
    for (const { url } of buildDiscoveryUrls(issuer)) {
      const response = await this.fetchFn(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) }).catch((error: Error) => {
        throw this.failure(`could not reach the authorization server ${issuer}: ${error.message}`)
      })
      if (!response.ok) {
        await response.body?.cancel()
        continue
      }
      const body = parseJson(await response.text())
      if (typeof body?.token_endpoint === 'string' && URL.canParse(body.token_endpoint)) return body.token_endpoint
    }
    throw this.failure(`the authorization server ${issuer} publishes no metadata with a token_endpoint`)
  }

  /** An error for the server's state and logs, the secret masked should anything echo it. */
  private failure(message: string): Error {
    // The endpoint may quote the secret as it got it: in the form, or form-encoded inside HTTP Basic.
    return new Error(`OAuth: ${maskValues(message, [this.config['client-secret']])}`)
  }
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text)
    return value && typeof value === 'object' ? value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}
