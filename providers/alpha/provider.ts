import { defineProvider } from 'model-proxy'
import { keyEntryCredentials } from '../_shared/key-entries.ts'
import { alphaCatalog, alphaModels } from './catalog.ts'

export const alphaDefaultBaseUrl = 'https://generativelanguage.googleapis.com'

/** The method part of the URL: the model travels in the path, not the body. */
export function alphaMethodPath(model: string, endpoint: string, stream: boolean): string {
  const method = endpoint === 'count_tokens' ? 'countTokens' : stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
  return `/v1beta/models/${encodeURIComponent(model)}:${method}`
}

/** alpha family (API keys): generateContent wire format, `x-goog-api-key`; streams always asked as SSE. */
export const alphaProvider = defineProvider({
  family: 'alpha',
  models: alphaModels,
  format: 'generate',
  credentials: config => keyEntryCredentials('alpha', config['alpha-api-key'], alphaDefaultBaseUrl, alphaCatalog),
  buildRequest({ credential, model, body, stream, endpoint }) {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...credential.headers }
    if (credential.apiKey) headers['x-goog-api-key'] = credential.apiKey
    else if (credential.accessToken) headers.authorization = `Bearer ${credential.accessToken}`
    const { model: _model, ...rest } = body
    return { url: credential.baseUrl + alphaMethodPath(model, endpoint, stream), method: 'POST', headers, json: rest, proxyUrl: credential.proxyUrl }
  },
})
