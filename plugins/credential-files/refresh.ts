import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { request } from 'undici'
import { writeFileAtomic } from '../../core/config/write.ts'
import { expiryOf, type CredentialFile } from './file-schema.ts'

export interface OAuthClient { 'token-url': string; 'client-id': string; 'client-secret'?: string }

/** Refresh this long before expiry, so no request ever carries an expired token. */
export const refreshAheadMs = 5 * 60_000

export const isDue = (file: CredentialFile, now = Date.now()) => {
  const expiry = expiryOf(file)
  return !!file.refresh_token && expiry !== undefined && expiry - now < refreshAheadMs
}

/**
 * OAuth refresh_token grant; the new tokens are written back into the same file atomically (other
 * fields kept). Throws with a reason the operator can read.
 */
export async function refreshFile(dir: string, name: string, client: OAuthClient): Promise<CredentialFile> {
  const path = join(dir, name)
  const current = JSON.parse(readFileSync(path, 'utf8')) as CredentialFile
  if (!current.refresh_token) throw new Error('no refresh_token in the file')
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: current.refresh_token, client_id: client['client-id'] })
  if (client['client-secret']) form.set('client_secret', client['client-secret'])
  const response = await request(client['token-url'], { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString(), headersTimeout: 15_000, bodyTimeout: 15_000 })
  const text = await response.body.text()
  let body: { access_token?: string; refresh_token?: string; expires_in?: number; error?: string; error_description?: string }
  try { body = JSON.parse(text) } catch { body = {} }
  if (response.statusCode >= 400 || !body.access_token) {
    throw new Error(`token refresh failed (${response.statusCode}): ${body.error_description ?? body.error ?? text.slice(0, 200)}`)
  }
  const next: CredentialFile = {
    ...current,
    access_token: body.access_token,
    ...(body.refresh_token && { refresh_token: body.refresh_token }),
    expiry: new Date(Date.now() + (body.expires_in ?? 3600) * 1000).toISOString(),
  }
  await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`)
  return next
}
