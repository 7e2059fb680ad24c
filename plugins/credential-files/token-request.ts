import { loadUndici } from 'model-proxy/kit/http'
import type { OAuthClient } from './oauth-clients.ts'
import { maskValues } from 'model-proxy/kit/access'

export interface TokenResponse { access_token?: string; refresh_token?: string; expires_in?: number; id_token?: string; account?: { email_address?: string }; error?: string; error_description?: string }

/** POST to the token endpoint in the format the vendor wants; throws with the vendor's reason. */
export async function tokenRequest(client: OAuthClient, params: Record<string, string>): Promise<TokenResponse> {
  const fields = { ...params, ...(client['client-id'] && { client_id: client['client-id'] }), ...(client['client-secret'] && { client_secret: client['client-secret'] }) }
  const json = client['token-format'] === 'json'
  const response = await loadUndici().request(client['token-url'], {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  })
  const text = await response.body.text()
  let body: TokenResponse
  try { body = JSON.parse(text) } catch { body = {} }
  if (response.statusCode >= 400 || !body.access_token) {
    // The reason ends up in logs and credential listings: an endpoint quoting our request must not put the refresh token there.
    const reason = maskValues(body.error_description ?? body.error ?? text, [params.refresh_token, params.code, params.code_verifier, params.assertion, fields.client_secret])
    throw new Error(`token endpoint answered ${response.statusCode}: ${reason.slice(0, 200)}`)
  }
  return body
}

/** Claims of a JWT (id_token) without verifying it: we only read the account's email and id. */
export function jwtClaims(token: string | undefined): Record<string, unknown> {
  if (!token) return {}
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
  } catch {
    return {}
  }
}
