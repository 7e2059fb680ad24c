import { z } from 'zod'
import type { ProxyConfig } from 'model-proxy'

const bool = () => z.boolean({ error: 'must be true or false' })
const nonEmpty = (what: string) => z.string().min(1, { error: `must be a non-empty ${what}` })

/**
 * The spec's `partner` section, validated with the rest of the YAML (this plugin's `configSchema`) and
 * read per request from the config, so a reload applies to the next request. The URL is checked where it
 * is used (`partnerBaseUrl`), so a bad one answers 503 instead of stopping the proxy.
 */
export const partnerSchema = z.looseObject({
  partner: z.object({
    'upstream-url': z.string().default(''),
    'upstream-api-key': z.string().default(''),
    'upstream-api-keys': z.array(z.strictObject({
      'upstream-api-key': nonEmpty('key'),
      'api-keys': z.array(nonEmpty('key')).default([]),
    })).default([]),
    'restrict-management-to-localhost': bool().default(false),
    'model-mappings': z.array(z.strictObject({ from: nonEmpty('model name'), to: nonEmpty('model name') })).default([]),
    'force-model-mappings': bool().default(false),
  }).prefault({}),
})
export type PartnerSettings = z.infer<typeof partnerSchema>['partner']

declare module 'model-proxy' {
  interface ProxyConfig { partner: PartnerSettings }
}

/** The live `partner` section (the schema filled its defaults). */
export const partnerOf = (config: ProxyConfig): PartnerSettings => config.partner

/** `upstream-url` without its trailing slash, or why it cannot be used (empty, not http(s)). */
export function partnerBaseUrl(settings: Pick<PartnerSettings, 'upstream-url'>): { url: string } | { problem: string } {
  const raw = settings['upstream-url'].trim()
  if (!raw) return { problem: 'the partner upstream is not configured (partner.upstream-url)' }
  let parsed: URL
  try { parsed = new URL(raw) } catch { return { problem: 'partner.upstream-url is not a valid URL' } }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: 'partner.upstream-url must be an http(s) URL' }
  return { url: raw.replace(/\/+$/, '') }
}
