import { defineProvider } from 'model-proxy'
import { keyEntryCredentials } from '../_shared/key-entries.ts'
import { betaCatalog, betaModels } from './catalog.ts'
import { betaRequestHeaders } from './request-headers.ts'

export { betaApiVersion, betaOAuthBeta } from './request-headers.ts'
export const betaDefaultBaseUrl = 'https://api.anthropic.com'

/** beta family: messages wire format, `x-api-key` + `anthropic-version` (+ the client's `anthropic-beta`). */
export const betaProvider = defineProvider({
  family: 'beta',
  models: betaModels,
  format: 'messages',
  credentials: config => keyEntryCredentials('beta', config['beta-api-key'], betaDefaultBaseUrl, betaCatalog),
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
