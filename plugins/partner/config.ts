import { z } from 'zod'
import type { ProxyConfig } from '../../core/config/schema.ts'

const bool = () => z.boolean({ error: 'must be true or false' })

/**
 * The spec's `partner` section, owned by this plugin (the base schema lists the key too, so `ProxyConfig`
 * types it). It accepts exactly what the base accepts: the management API writes a YAML that passes the
 * base schema before plugin schemas see it, so a stricter rule here could leave a refused value on disk.
 * The URL is checked where it is used instead (`partnerBaseUrl`).
 */
export const partnerSectionSchema = z.object({
  'upstream-url': z.string().default(''),
  'upstream-api-key': z.string().default(''),
  'upstream-api-keys': z.array(z.object({
    'upstream-api-key': z.string().min(1, { error: 'must be a non-empty key' }),
    'api-keys': z.array(z.string().min(1, { error: 'must be a non-empty key' })).default([]),
  })).default([]),
  'restrict-management-to-localhost': bool().default(false),
  'model-mappings': z.array(z.object({
    from: z.string().min(1, { error: 'must be a non-empty model name' }),
    to: z.string().min(1, { error: 'must be a non-empty model name' }),
  })).default([]),
  'force-model-mappings': bool().default(false),
}).prefault({})

export const partnerConfigSchema = z.looseObject({ partner: partnerSectionSchema })

export type PartnerSettings = ProxyConfig['partner']

/** Read at request time, never cached: a reload (management write or file edit) applies to the next request. */
export const partnerSettings = (config: ProxyConfig): PartnerSettings => config.partner

/** `upstream-url` without its trailing slash, or why it cannot be used (empty, not http(s)). */
export function partnerBaseUrl(settings: Pick<PartnerSettings, 'upstream-url'>): { url: string } | { problem: string } {
  const raw = settings['upstream-url'].trim()
  if (!raw) return { problem: 'the partner upstream is not configured (partner.upstream-url)' }
  let parsed: URL
  try { parsed = new URL(raw) } catch { return { problem: 'partner.upstream-url is not a valid URL' } }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: 'partner.upstream-url must be an http(s) URL' }
  return { url: raw.replace(/\/+$/, '') }
}
