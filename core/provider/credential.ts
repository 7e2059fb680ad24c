/** A model a credential offers: the name clients use and the name sent upstream. */
export interface ModelOffer { id: string; upstream: string }

export type CredentialState = 'ready' | 'cooldown' | 'blocked' | 'disabled'

/** One upstream credential (an API-key entry or an OAuth credential file), as the router sees it. */
export interface Credential {
  /** Stable id, e.g. `compat:local:0`; never contains the secret. */
  id: string
  /** Provider family that sends with it (`compat`, `alpha`, ...). */
  family: string
  /** Display name of the upstream (compat entry name or the family). */
  provider: string
  apiKey?: string
  accessToken?: string
  baseUrl: string
  headers: Record<string, string>
  prefix: string
  priority: number
  /** undefined = global proxy-url, '' = none. */
  proxyUrl?: string
  models: ModelOffer[]
  excludedModels: string[]
  attributes: Record<string, string>
}

/** `sk-abcdef1234567890` -> `sk-a...7890`: enough to recognise a key, not to use it; short keys show nothing. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return ''
  if (secret.length < 16) return '****'
  return `${secret.slice(0, 4)}...${secret.slice(-4)}`
}

/**
 * Each of `secrets` in `text` replaced by its mask (mask before cutting text short: a cut secret would
 * slip through). A secret that is not there costs a search, not a copy of the text.
 */
export function maskValues(text: string, secrets: ReadonlyArray<string | undefined>): string {
  for (const secret of secrets) {
    if (secret && secret.length >= 4 && text.includes(secret)) text = text.replaceAll(secret, maskSecret(secret))
  }
  return text
}

/** Upstreams sometimes echo the key they were sent: never let it reach a client or a log. */
export function scrubSecrets(text: string, credential: Credential): string {
  return maskValues(text, [credential.apiKey, credential.accessToken])
}
