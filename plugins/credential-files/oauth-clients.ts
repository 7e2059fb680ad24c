import { z } from 'zod'
import type { ProxyConfig, OAuthClient } from 'model-proxy'
import type { FileChannel } from './channels.ts'

export type { OAuthClient }

/**
 * `oauth-clients.<type>`: overrides of any field of a family's OAuth client (tests point them at a mock
 * OAuth server; vendors whose CLI secret is not shipped need `client-secret` here).
 */
export const oauthClientsSchema = z.looseObject({
  'oauth-clients': z.record(z.string(), z.object({
    'token-url': z.string().optional(),
    'client-id': z.string().optional(),
    'client-secret': z.string().optional(),
    'authorize-url': z.string().optional(),
    scopes: z.string().optional(),
    'authorize-params': z.record(z.string(), z.string()).optional(),
    'token-format': z.enum(['form', 'json']).optional(),
  })).default({}),
})

/** The keys this schema adds to the live config (declared on `ProxyConfig` by the plugin). */
export type OAuthClientsConfig = z.infer<typeof oauthClientsSchema>

export const oauthOverride = (config: ProxyConfig, type: string): Partial<OAuthClient> | undefined => config['oauth-clients'][type]

/** The family's client (ProviderDef.credentialFile.oauth) with the config's overrides on top. */
export function oauthClientFor(config: ProxyConfig, type: string, channels: Map<string, FileChannel>): OAuthClient | undefined {
  const override = oauthOverride(config, type)
  const base = channels.get(type)?.def.oauth
  if (!base && !override?.['token-url']) return undefined
  return { ...base, ...override } as OAuthClient
}
