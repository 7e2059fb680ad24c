import { escapeRegExp } from '../pipeline/stream-markers.ts'
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
    if (!secret || secret.length < 4) continue
    if (text.includes(secret)) text = text.replaceAll(secret, maskSecret(secret))
    // An upstream or a token endpoint may quote it encoded: in a URL, a form body, a base64 blob.
    for (const form of encodedForms(secret)) if (text.includes(form)) text = text.replaceAll(form, maskSecret(secret))
  }
  return text
}

/** A secret as text spells it: plain, URL-encoded, JSON-escaped, `\\/` for a slash (most keys spell all alike). */
export const textSpellings = (secret: string): string[] =>
  [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), secret.replaceAll('/', '\\/')])]

const patterns = new WeakMap<readonly string[], RegExp>()
/**
 * Every form of every secret in `secrets` as one pattern, made once per list (a config's list: its
 * identity is its version). One test of a log line against it: ~0.15 µs with 50 keys, where searching
 * each form (17 a key) costs ~9 µs.
 */
export function secretsPattern(secrets: readonly string[]): RegExp {
  let pattern = patterns.get(secrets)
  if (!pattern) patterns.set(secrets, pattern = new RegExp(secrets.flatMap(secret => [secret, ...encodedForms(secret)]).map(escapeRegExp).join('|') || '(?!)'))
  return pattern
}

const formsCache = new Map<string, string[]>()
/**
 * How `secret` shows when encoded: URL-encoded, and the base64 / base64url runs that stand for it inside
 * any encoded text (one per byte alignment; the last, partial group depends on what follows, so it is left out).
 */
export function encodedForms(secret: string): string[] {
  let forms = formsCache.get(secret)
  if (forms) return forms
  // As text spells it (URL-encoded, JSON-escaped, `\\/`: the proxy's translation decodes those back to the
  // plain secret), and URL-encoded twice (a URL holding a URL: a redirect's return address with ?key=).
  const found = new Set<string>(textSpellings(secret))
  const encoded = encodeURIComponent(secret)
  found.add(encodeURIComponent(encoded))
  // base64 of the secret, and of it form-encoded (HTTP Basic of OAuth client credentials, RFC 6749 2.3.1).
  for (const bytes of [...new Set([secret, encoded])].map(text => Buffer.from(text))) {
    for (let shift = 0; shift < 3; shift++) {
      const rest = bytes.subarray(shift)
      const whole = Math.floor(rest.length / 3) * 4
      // Shorter runs could match unrelated base64 text.
      if (whole < 16) continue
      // base64 in a URL has its + and / encoded.
      for (const run of [rest.toString('base64').slice(0, whole), rest.toString('base64url').slice(0, whole)]) found.add(run).add(encodeURIComponent(run))
    }
  }
  found.delete(secret)
  forms = [...found]
  if (formsCache.size > 1000) formsCache.clear()
  formsCache.set(secret, forms)
  return forms
}

/** Header names whose configured values are credentials (a gateway's token, a session cookie), not settings like a version. */
const secretHeaderName = /auth|key|token|secret|cookie|session|signature|password|credential/i
export const isSecretHeader = (name: string) => secretHeaderName.test(name)

/** What a credential sends that nobody may see: its key or token, and the values of its secret-named headers. */
export function credentialSecrets(credential: Credential): string[] {
  const out = [credential.apiKey, credential.accessToken].filter((secret): secret is string => !!secret)
  for (const name in credential.headers) if (isSecretHeader(name) && credential.headers[name]) out.push(credential.headers[name]!)
  return out
}

/** Upstreams sometimes echo the key they were sent: never let it reach a client or a log. */
export function scrubSecrets(text: string, credential: Credential): string {
  return maskValues(text, credentialSecrets(credential))
}
