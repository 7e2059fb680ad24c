import { defineProvider } from '../../core/provider.ts'
import { keyEntryCredentials } from '../_shared/key-entries.ts'
import { betaCatalog, betaModels } from './catalog.ts'

export const betaDefaultBaseUrl = 'https://api.anthropic.com'
/** The API version header the vendor requires on every call. */
export const betaApiVersion = '2023-06-01'
/** Feature flag the vendor requires on requests made with an OAuth token. */
export const betaOAuthBeta = 'oauth-2025-04-20'

/** beta family: messages wire format, `x-api-key` + `anthropic-version`. */
export const betaProvider = defineProvider({
  family: 'beta',
  models: betaModels,
  format: 'messages',
  credentials: config => keyEntryCredentials('beta', config['beta-api-key'], betaDefaultBaseUrl, betaCatalog),
  buildRequest({ credential, body, endpoint, stream }) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      'anthropic-version': betaApiVersion,
      ...credential.headers,
    }
    if (credential.apiKey) headers['x-api-key'] = credential.apiKey
    else if (credential.accessToken) {
      // Signed-in accounts: the token and the beta header the vendor's CLI sends with it.
      headers.authorization = `Bearer ${credential.accessToken}`
      headers['anthropic-beta'] = headers['anthropic-beta'] ? `${headers['anthropic-beta']},${betaOAuthBeta}` : betaOAuthBeta
    }
    const path = endpoint === 'count_tokens' ? '/v1/messages/count_tokens' : '/v1/messages'
    return { url: credential.baseUrl + path, method: 'POST', headers, json: body, proxyUrl: credential.proxyUrl }
  },
})
