import { defineProvider } from 'model-proxy'
import { wrapCliRequest } from './codec/cli-envelope.ts'
import { alphaModels } from './catalog.ts'
import { googleOAuth } from './oauth.ts'
import { projectDiscovery } from './project-discovery.ts'

export const alphaCliDefaultBaseUrl = 'https://cloudcode-pa.googleapis.com'

/**
 * alpha-cli channel: the vendor's code-assist internal endpoint with a signed-in account. The body is
 * the generateContent body wrapped as `{model, project, request}`; answers come back as `{response}`,
 * which the codec unwraps, so this provider never takes the same-format pass-through.
 */
export const alphaCliProvider = defineProvider({
  family: 'alpha-cli',
  label: 'alpha-cli (code-assist account)',
  format: 'generate',
  passthrough: false,
  models: alphaModels,
  baseUrl: alphaCliDefaultBaseUrl,
  credentialFile: {
    baseUrl: alphaCliDefaultBaseUrl,
    oauth: { ...googleOAuth, scopes: 'https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile' },
    prepare: projectDiscovery,
  },
  hosts: ['cloudcode-pa.googleapis.com'],
  payloadProtocol: 'proto_alpha',
  credentials: () => [],
  buildRequest({ credential, model, body, stream }) {
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
    return {
      url: `${credential.baseUrl}/v1internal:${method}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credential.accessToken ?? ''}`, ...credential.headers },
      json: body.edit(({ model: _model, ...request }) => wrapCliRequest(model, credential.attributes.project ?? '', request)),
      proxyUrl: credential.proxyUrl,
    }
  },
})
