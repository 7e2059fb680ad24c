import type { Credential, ProviderDef } from 'model-proxy'

const hostOf = (url: string) => {
  try { return new URL(url).host } catch { return '' }
}

/** The hosts families reach by default (ProviderDef.hosts), by family. */
export type VendorHosts = ReadonlyMap<string, ProviderDef<any>>

const matches = (patterns: ProviderDef<any>['hosts'], host: string) =>
  (patterns ?? []).some(pattern => typeof pattern === 'string' ? pattern === host : pattern.test(host))

/** Whether `host` (URL `host`: name, plus the port when not the default) is a vendor host of `family` (any family when omitted). */
export function isVendorHost(host: string, providers: VendorHosts, family?: string): boolean {
  if (family) return matches(providers.get(family)?.hosts, host)
  for (const provider of providers.values()) if (matches(provider.hosts, host)) return true
  return false
}

/**
 * Where `api-call` may go: the base-URL host of a configured credential, or a registered family's host.
 * Anything else is refused (no open relay through the management API).
 */
export function isAllowedUpstreamHost(host: string, credentials: Credential[], providers: VendorHosts): boolean {
  return isVendorHost(host, providers) || credentials.some(credential => hostOf(credential.baseUrl) === host)
}

/** A credential's auth goes only to its own base-URL host or its family's vendor hosts. */
export function mayCarryCredential(host: string, credential: Credential, providers: VendorHosts): boolean {
  return hostOf(credential.baseUrl) === host || isVendorHost(host, providers, credential.family)
}
