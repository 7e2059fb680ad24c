import { defineProvider, keyEntryCredentials, keyListConfig } from 'model-proxy'
import { betaCatalog, betaModels } from './catalog.ts'
import { betaRequestHeaders } from './request-headers.ts'

export { betaApiVersion, betaOAuthBeta } from './request-headers.ts'
export const betaDefaultBaseUrl = 'https://api.anthropic.com'

/** beta family: messages wire format, `x-api-key` + `anthropic-version` (+ the client's `anthropic-beta`). */
export const betaProvider = defineProvider({
  family: 'beta',
  label: 'beta (messages)',
  models: betaModels,
  format: 'messages',
  baseUrl: betaDefaultBaseUrl,
  config: keyListConfig('beta-api-key'),
  credentialFile: {
    oauth: {
      'authorize-url': 'https://claude.ai/oauth/authorize',
      'token-url': 'https://console.anthropic.com/v1/oauth/token',
      'client-id': '9d1c250a-e61b-44d9-88ed-5944d1962f5e',
      scopes: 'org:create_api_key user:profile user:inference',
      'authorize-params': { code: 'true' },
      'token-format': 'json',
    },
  },
  hosts: ['api.anthropic.com'],
  testCall: { path: '/v1/models' },
  payloadProtocol: 'proto_beta',
  credentials: (_config, entries) => keyEntryCredentials('beta', entries, betaDefaultBaseUrl, betaCatalog),
  buildRequest({ credential, body, endpoint, stream, clientHeaders }) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      ...credential.headers,
    }
    // The entry may spell these in any case: ours replace them (already merged in).
    for (const name in headers) if (/^anthropic-(version|beta)$/i.test(name)) delete headers[name]
    Object.assign(headers, betaRequestHeaders(credential, clientHeaders))
    if (credential.apiKey) headers['x-api-key'] = credential.apiKey
    // Signed-in accounts: the token (its beta is in betaRequestHeaders).
    else if (credential.accessToken) headers.authorization = `Bearer ${credential.accessToken}`
    const path = endpoint === 'count_tokens' ? '/v1/messages/count_tokens' : '/v1/messages'
    return { url: credential.baseUrl + path, method: 'POST', headers, json: body, proxyUrl: credential.proxyUrl }
  },
})
