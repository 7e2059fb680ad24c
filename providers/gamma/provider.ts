import { defineProvider, keyEntryCredentials, keyListConfig } from 'model-proxy'
import { pickClientHeaders } from 'model-proxy/kit/http'
import { gammaCatalog, gammaModels } from './catalog.ts'

export const gammaDefaultBaseUrl = 'https://api.openai.com/v1'
/** Signed-in accounts call the vendor's account endpoint, not the API. */
export const gammaAccountBaseUrl = 'https://chatgpt.com/backend-api/codex'
/**
 * Client headers that change what the vendor's responses endpoints do: feature gates (`OpenAI-Beta`,
 * the coding CLI's `x-codex-beta-features`) and the session id its account endpoint keys prompt caching on.
 */
export const gammaClientHeaders = ['openai-beta', 'x-codex-beta-features', 'session_id', 'session-id'] as const

/** gamma family: responses wire format, Bearer key, `base-url` ending in `/v1`. */
export const gammaProvider = defineProvider({
  family: 'gamma',
  label: 'gamma (responses)',
  models: gammaModels,
  format: 'responses',
  baseUrl: gammaDefaultBaseUrl,
  config: keyListConfig('gamma-api-key'),
  credentialFile: {
    baseUrl: gammaAccountBaseUrl,
    oauth: {
      'authorize-url': 'https://auth.openai.com/oauth/authorize',
      'token-url': 'https://auth.openai.com/oauth/token',
      'client-id': 'app_EMoamEEZ73f0CkXaXp7hrann',
      scopes: 'openid profile email offline_access',
      'authorize-params': { id_token_add_organizations: 'true', codex_cli_simplified_flow: 'true' },
    },
  },
  hosts: ['api.openai.com', 'chatgpt.com'],
  testCall: { path: '/models' },
  payloadProtocol: 'proto_gamma',
  credentials: (_config, entries) => keyEntryCredentials('gamma', entries, gammaDefaultBaseUrl, gammaCatalog),
  buildRequest({ credential, body, stream, endpoint, clientHeaders }) {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', ...pickClientHeaders(clientHeaders, gammaClientHeaders), ...credential.headers }
    const token = credential.apiKey ?? credential.accessToken
    if (token) headers.authorization = `Bearer ${token}`
    // Account tokens go to the vendor's account endpoint, which wants the account id and its client's name.
    if (!credential.apiKey && credential.accessToken) {
      if (credential.attributes.account) headers['chatgpt-account-id'] = credential.attributes.account
      headers.originator ??= 'codex_cli_rs'
    }
    const path = endpoint === 'compact' ? '/responses/compact' : '/responses'
    return { url: credential.baseUrl + path, method: 'POST', headers, json: body, proxyUrl: credential.proxyUrl }
  },
})
