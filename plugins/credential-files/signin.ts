import { createHash, randomBytes } from 'node:crypto'
import type { OAuthClient } from './oauth-clients.ts'
import type { CredentialFile } from './file-schema.ts'
import { jwtClaims, tokenRequest } from './token-request.ts'

export interface SignIn {
  /** The credential-file type signed in for. */
  provider: string
  verifier: string
  redirectUri: string
  createdAt: number
  status: 'wait' | 'ok' | 'error'
  error?: string
  file?: string
}

/** Pending sign-ins expire after this long. */
export const signInTtlMs = 10 * 60_000

/** PKCE (S256): a random verifier and its challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export function authorizeUrl(client: OAuthClient, redirectUri: string, state: string, challenge: string): string {
  const url = new URL(client['authorize-url']!)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', client['client-id'])
  url.searchParams.set('redirect_uri', redirectUri)
  if (client.scopes) url.searchParams.set('scope', client.scopes)
  url.searchParams.set('state', state)
  url.searchParams.set('code_challenge', challenge)
  url.searchParams.set('code_challenge_method', 'S256')
  for (const [key, value] of Object.entries(client['authorize-params'] ?? {})) url.searchParams.set(key, value)
  return url.toString()
}

/** Exchange the code and build the credential file the sign-in produced. */
export async function completeSignIn(client: OAuthClient, pending: SignIn, code: string, state: string): Promise<CredentialFile> {
  const tokens = await tokenRequest(client, { grant_type: 'authorization_code', code, redirect_uri: pending.redirectUri, code_verifier: pending.verifier, state })
  const claims = jwtClaims(tokens.id_token)
  const auth = (claims['https://api.openai.com/auth'] ?? {}) as { chatgpt_account_id?: string }
  const email = tokens.account?.email_address ?? (typeof claims.email === 'string' ? claims.email : undefined)
  return {
    type: pending.provider,
    access_token: tokens.access_token,
    ...(tokens.refresh_token && { refresh_token: tokens.refresh_token }),
    expiry: new Date(Date.now() + (tokens.expires_in ?? 3600) * 1000).toISOString(),
    ...(email && { email }),
    ...(auth.chatgpt_account_id && { account_id: auth.chatgpt_account_id }),
  }
}

/** A file name for a new sign-in: `<type>-<email or time>.json`, safe for any file system. */
export function fileNameFor(file: CredentialFile): string {
  const who = (file.email ?? String(Date.now())).replace(/[^\w.@+-]/g, '_')
  return `${file.type}-${who}.json`
}
