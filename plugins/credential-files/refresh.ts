import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { tokenRequest } from './token-request.ts'
import { writeFileAtomic } from 'model-proxy/kit/config'
import { expiryOf, type CredentialFile } from './file-schema.ts'

import type { OAuthClient } from './oauth-clients.ts'

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
  const body = await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: current.refresh_token })
  const next: CredentialFile = {
    ...current,
    access_token: body.access_token,
    ...(body.refresh_token && { refresh_token: body.refresh_token }),
    expiry: new Date(Date.now() + (body.expires_in ?? 3600) * 1000).toISOString(),
  }
  await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`)
  return next
}
