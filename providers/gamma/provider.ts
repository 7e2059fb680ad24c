import { defineProvider } from 'model-proxy'
import { pickClientHeaders } from 'model-proxy/internal'
import { keyEntryCredentials } from '../_shared/key-entries.ts'
import { gammaCatalog, gammaModels } from './catalog.ts'

export const gammaDefaultBaseUrl = 'https://api.openai.com/v1'
/**
 * Client headers that change what the vendor's responses endpoints do: feature gates (`OpenAI-Beta`,
 * the coding CLI's `x-codex-beta-features`) and the session id its account endpoint keys prompt caching on.
 */
export const gammaClientHeaders = ['openai-beta', 'x-codex-beta-features', 'session_id', 'session-id'] as const

/** gamma family: responses wire format, Bearer key, `base-url` ending in `/v1`. */
export const gammaProvider = defineProvider({
  family: 'gamma',
  models: gammaModels,
  format: 'responses',
  credentials: config => keyEntryCredentials('gamma', config['gamma-api-key'], gammaDefaultBaseUrl, gammaCatalog),
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
