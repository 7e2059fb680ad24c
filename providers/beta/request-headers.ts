import type { Credential } from 'model-proxy'

/** The API version header the vendor requires on every call, when the client sent none. */
export const betaApiVersion = '2023-06-01'
/** Feature flag the vendor requires on requests made with an OAuth token. */
export const betaOAuthBeta = 'oauth-2025-04-20'

/** A header of the configured entry, whatever its case in the YAML. */
function configured(credential: Credential, name: string): string | undefined {
  for (const key in credential.headers) if (key.toLowerCase() === name) return credential.headers[key]
  return undefined
}

/** The last merge: an agent sends the same beta list with every request (Claude Code: eight of them). */
let lastLists = ''
let lastMerged = ''

/** Comma lists joined without repeats, in order of first appearance. */
export function mergeBetas(...lists: Array<string | null | undefined>): string {
  // NUL cannot stand in a header value, so the key tells the lists apart.
  const key = lists.join('\u0000')
  if (key === lastLists) return lastMerged
  const betas = new Set<string>()
  for (const list of lists) for (const beta of list?.split(',') ?? []) if (beta.trim()) betas.add(beta.trim())
  lastLists = key
  lastMerged = [...betas].join(',')
  return lastMerged
}

/**
 * `anthropic-version` and `anthropic-beta` for a beta upstream: what a messages client asked for travels
 * (body fields such as `context_management` or `output_config` need their betas), merged with what the
 * entry's `headers` and the credential kind need (an account token's own beta). Clients that sent none
 * (other formats, translated) get the vendor's base version. No other family sees these headers.
 */
export function betaRequestHeaders(credential: Credential, client?: Headers): Record<string, string> {
  const headers: Record<string, string> = { 'anthropic-version': client?.get('anthropic-version') || configured(credential, 'anthropic-version') || betaApiVersion }
  const account = !credential.apiKey && credential.accessToken ? betaOAuthBeta : undefined
  const betas = mergeBetas(configured(credential, 'anthropic-beta'), client?.get('anthropic-beta'), account)
  if (betas) headers['anthropic-beta'] = betas
  return headers
}
