import { defineProvider, keyEntryCredentials, keyListConfig } from 'model-proxy'
import { alphaCatalog, alphaModels } from './catalog.ts'
import { googleOAuth } from './oauth.ts'

export const alphaDefaultBaseUrl = 'https://generativelanguage.googleapis.com'

/** The method part of the URL: the model travels in the path, not the body. */
export function alphaMethodPath(model: string, endpoint: string, stream: boolean): string {
  const method = endpoint === 'count_tokens' ? 'countTokens' : stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
  return `/v1beta/models/${encodeURIComponent(model)}:${method}`
}

/** alpha family (API keys): generateContent wire format, `x-goog-api-key`; streams always asked as SSE. */
export const alphaProvider = defineProvider({
  family: 'alpha',
  label: 'alpha (generateContent)',
  models: alphaModels,
  format: 'generate',
  baseUrl: alphaDefaultBaseUrl,
  config: keyListConfig('alpha-api-key'),
  credentialFile: { oauth: { ...googleOAuth, scopes: 'https://www.googleapis.com/auth/generative-language.retriever https://www.googleapis.com/auth/userinfo.email' } },
  hosts: ['generativelanguage.googleapis.com'],
  testCall: { path: '/v1beta/models' },
  payloadProtocol: 'proto_alpha',
  credentials: (_config, entries) => keyEntryCredentials('alpha', entries, alphaDefaultBaseUrl, alphaCatalog),
  buildRequest({ credential, model, body, stream, endpoint }) {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...credential.headers }
    if (credential.apiKey) headers['x-goog-api-key'] = credential.apiKey
    else if (credential.accessToken) headers.authorization = `Bearer ${credential.accessToken}`
    const json = body.edit(({ model: _model, ...rest }) => rest)
    return { url: credential.baseUrl + alphaMethodPath(model, endpoint, stream), method: 'POST', headers, json, proxyUrl: credential.proxyUrl }
  },
})
