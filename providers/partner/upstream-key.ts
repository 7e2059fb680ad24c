import type { PartnerSettings } from './config.ts'

/** Rule 18: the partner key of the `upstream-api-keys` entry listing this client, else `upstream-api-key`. */
export function upstreamKeyFor(settings: Pick<PartnerSettings, 'upstream-api-key' | 'upstream-api-keys'>, clientKey: string | undefined): string | undefined {
  if (clientKey !== undefined) {
    for (const entry of settings['upstream-api-keys']) if (entry['api-keys'].includes(clientKey)) return entry['upstream-api-key']
  }
  return settings['upstream-api-key'] || undefined
}
