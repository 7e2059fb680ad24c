import { defineProvider } from '../../core/provider.ts'
import { keyEntryCredentials } from '../_shared/key-entries.ts'
import { betaCatalog } from './catalog.ts'

export const betaDefaultBaseUrl = 'https://api.anthropic.com'
/** The API version header the vendor requires on every call. */
export const betaApiVersion = '2023-06-01'

/** beta family: messages wire format, `x-api-key` + `anthropic-version`. */
export const betaProvider = defineProvider({
  family: 'beta',
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
    else if (credential.accessToken) headers.authorization = `Bearer ${credential.accessToken}`
    const path = endpoint === 'count_tokens' ? '/v1/messages/count_tokens' : '/v1/messages'
    return { url: credential.baseUrl + path, method: 'POST', headers, json: body, proxyUrl: credential.proxyUrl }
  },
})
