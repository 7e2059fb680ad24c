import type { ProxyConfig } from 'model-proxy'

/**
 * The spec's `partner` section is part of the base config schema (core/config/schema.ts): read per
 * request from `kernel.config.partner`, so a reload applies to the next request. The URL is checked
 * where it is used (`partnerBaseUrl`), so a bad one answers 503 instead of stopping the proxy.
 */
export type PartnerSettings = ProxyConfig['partner']

/** `upstream-url` without its trailing slash, or why it cannot be used (empty, not http(s)). */
export function partnerBaseUrl(settings: Pick<PartnerSettings, 'upstream-url'>): { url: string } | { problem: string } {
  const raw = settings['upstream-url'].trim()
  if (!raw) return { problem: 'the partner upstream is not configured (partner.upstream-url)' }
  let parsed: URL
  try { parsed = new URL(raw) } catch { return { problem: 'partner.upstream-url is not a valid URL' } }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: 'partner.upstream-url must be an http(s) URL' }
  return { url: raw.replace(/\/+$/, '') }
}
