import { z } from 'zod'
import type { ProxyConfig } from 'model-proxy'

export interface OAuthClient {
  'token-url': string
  'client-id': string
  'client-secret'?: string
  'authorize-url'?: string
  scopes?: string
  /** Extra authorize-URL parameters the vendor needs (offline access and the like). */
  'authorize-params'?: Record<string, string>
  /** How the token endpoint wants its body: form-encoded (OAuth's default) or JSON. */
  'token-format'?: 'form' | 'json'
}

const google = {
  'authorize-url': 'https://accounts.google.com/o/oauth2/v2/auth',
  'token-url': 'https://oauth2.googleapis.com/token',
  'client-id': '681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com',
  'authorize-params': { access_type: 'offline', prompt: 'consent' },
}

/**
 * The vendors' OAuth endpoints and the public client ids of their CLIs, per sign-in type. Any field
 * can be overridden under `oauth-clients.<type>` (tests point them at a mock OAuth server). The Google
 * types also need `client-secret` set: their CLI's public value is not shipped here.
 */
export const defaultOAuthClients: Record<string, OAuthClient> = {
  beta: {
    'authorize-url': 'https://claude.ai/oauth/authorize',
    'token-url': 'https://console.anthropic.com/v1/oauth/token',
    'client-id': '9d1c250a-e61b-44d9-88ed-5944d1962f5e',
    scopes: 'org:create_api_key user:profile user:inference',
    'authorize-params': { code: 'true' },
    'token-format': 'json',
  },
  gamma: {
    'authorize-url': 'https://auth.openai.com/oauth/authorize',
    'token-url': 'https://auth.openai.com/oauth/token',
    'client-id': 'app_EMoamEEZ73f0CkXaXp7hrann',
    scopes: 'openid profile email offline_access',
    'authorize-params': { id_token_add_organizations: 'true', codex_cli_simplified_flow: 'true' },
  },
  'alpha-cli': { ...google, scopes: 'https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile' },
  alpha: { ...google, scopes: 'https://www.googleapis.com/auth/generative-language.retriever https://www.googleapis.com/auth/userinfo.email' },
  delta: { ...google, scopes: 'https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/userinfo.email' },
}

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

/** Defaults with the config's overrides on top. */
export function oauthClientFor(config: ProxyConfig, type: string): OAuthClient | undefined {
  const override = config['oauth-clients'][type]
  const base = defaultOAuthClients[type]
  if (!base && !override?.['token-url']) return undefined
  return { ...base, ...override } as OAuthClient
}
