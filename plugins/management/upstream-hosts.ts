import type { Credential } from 'model-proxy'

/** Hosts the built-in families reach by default (their API and sign-in endpoints), by family. */
export const vendorHosts: Record<string, string[]> = {
  alpha: ['generativelanguage.googleapis.com'],
  'alpha-cli': ['cloudcode-pa.googleapis.com'],
  beta: ['api.anthropic.com'],
  gamma: ['api.openai.com', 'chatgpt.com'],
  delta: ['aiplatform.googleapis.com'],
}

/** delta's regional endpoints: `<location>-aiplatform.googleapis.com`. */
const deltaRegional = /^[a-z0-9-]+-aiplatform\.googleapis\.com$/

const hostOf = (url: string) => {
  try { return new URL(url).host } catch { return '' }
}

/** Whether `host` (URL `host`: name, plus the port when not the default) is a vendor host of `family` (any family when omitted). */
export function isVendorHost(host: string, family?: string): boolean {
  const families = family ? [family] : Object.keys(vendorHosts)
  return families.some(name => vendorHosts[name]?.includes(host) || (name === 'delta' && deltaRegional.test(host)))
}

/**
 * Where `api-call` may go: the base-URL host of a configured credential, or a built-in vendor host.
 * Anything else is refused (no open relay through the management API).
 */
export function isAllowedUpstreamHost(host: string, credentials: Credential[]): boolean {
  return isVendorHost(host) || credentials.some(credential => hostOf(credential.baseUrl) === host)
}

/** A credential's auth goes only to its own base-URL host or its family's vendor hosts. */
export function mayCarryCredential(host: string, credential: Credential): boolean {
  return hostOf(credential.baseUrl) === host || isVendorHost(host, credential.family)
}
