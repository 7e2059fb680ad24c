import { createSign } from 'node:crypto'
import { tokenRequest } from './token-request.ts'

/** The fields of a cloud service-account key file that the JWT grant needs. */
export interface ServiceAccountKey { client_email: string; private_key: string; project_id?: string; token_uri?: string }

/** The family's grant (ProviderDef.credentialFile.serviceAccount): the scope asked for and the default token URL. */
export interface ServiceAccountGrant { scope: string; tokenUrl: string }

/** An RS256 JWT assertion signed with the account's private key (RFC 7523), valid one hour. */
export function signAssertion(key: ServiceAccountKey, grant: ServiceAccountGrant, now = Math.floor(Date.now() / 1000)): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const header = encode({ alg: 'RS256', typ: 'JWT' })
  const claims = encode({ iss: key.client_email, scope: grant.scope, aud: key.token_uri ?? grant.tokenUrl, iat: now, exp: now + 3600 })
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(key.private_key).toString('base64url')
  return `${header}.${claims}.${signature}`
}

/** Exchange a signed assertion for an access token (urn:ietf:params:oauth:grant-type:jwt-bearer). */
export async function serviceAccountToken(key: ServiceAccountKey, grant: ServiceAccountGrant, tokenUrl?: string): Promise<{ token: string; expiry: number }> {
  const body = await tokenRequest({ 'token-url': tokenUrl ?? key.token_uri ?? grant.tokenUrl, 'client-id': '' }, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: signAssertion(key, grant) })
  return { token: body.access_token!, expiry: Date.now() + (body.expires_in ?? 3600) * 1000 }
}
