import { defineProvider, keyEntryCredentials, keyListConfig } from 'model-proxy'
import { deltaCatalog, deltaModels } from './catalog.ts'
import { googleOAuth } from '../alpha/api.ts'

/** Global endpoint: API keys (express mode) take no project or location. */
export const deltaDefaultBaseUrl = 'https://aiplatform.googleapis.com'
export const deltaDefaultLocation = 'us-central1'

function method(endpoint: string, stream: boolean): string {
  return endpoint === 'count_tokens' ? 'countTokens' : stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
}

/**
 * delta family: the cloud platform's relay of alpha's generateContent format. API keys call the
 * publisher model path with `x-goog-api-key`; service accounts (credential files) call the project and
 * location path with a Bearer token from the signed-JWT grant.
 */
export const deltaProvider = defineProvider({
  family: 'delta',
  label: 'delta (cloud platform)',
  models: deltaModels,
  format: 'generate',
  baseUrl: deltaDefaultBaseUrl,
  config: keyListConfig('delta-api-key'),
  credentialFile: {
    oauth: { ...googleOAuth, scopes: 'https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/userinfo.email' },
    serviceAccount: { scope: 'https://www.googleapis.com/auth/cloud-platform', tokenUrl: 'https://oauth2.googleapis.com/token' },
  },
  // Regional endpoints are `<location>-aiplatform.googleapis.com`.
  hosts: ['aiplatform.googleapis.com', /^[a-z0-9-]+-aiplatform\.googleapis\.com$/],
  testCall: { path: '/v1/publishers/google/models' },
  payloadProtocol: 'proto_alpha',
  credentials: (_config, entries) => keyEntryCredentials('delta', entries, deltaDefaultBaseUrl, deltaCatalog),
  buildRequest({ credential, model, body, stream, endpoint }) {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...credential.headers }
    let url: string
    if (credential.apiKey) {
      headers['x-goog-api-key'] = credential.apiKey
      url = `${credential.baseUrl}/v1/publishers/google/models/${encodeURIComponent(model)}:${method(endpoint, stream)}`
    } else {
      headers.authorization = `Bearer ${credential.accessToken ?? ''}`
      const location = credential.attributes.location || deltaDefaultLocation
      const base = credential.attributes.baseUrlExplicit ? credential.baseUrl : location === 'global' ? deltaDefaultBaseUrl : `https://${location}-aiplatform.googleapis.com`
      url = `${base}/v1/projects/${encodeURIComponent(credential.attributes.project ?? '')}/locations/${location}/publishers/google/models/${encodeURIComponent(model)}:${method(endpoint, stream)}`
    }
    return { url, method: 'POST', headers, json: body.edit(({ model: _model, ...request }) => request), proxyUrl: credential.proxyUrl }
  },
})
