import { defineProvider } from 'model-proxy'
import { wrapCliRequest } from './codec/cli-envelope.ts'

/**
 * alpha-cli channel: the vendor's code-assist internal endpoint with a signed-in account. The body is
 * the generateContent body wrapped as `{model, project, request}`; answers come back as `{response}`,
 * which the codec unwraps, so this provider never takes the same-format pass-through.
 */
export const alphaCliProvider = defineProvider({
  family: 'alpha-cli',
  format: 'generate',
  passthrough: false,
  credentials: () => [],
  buildRequest({ credential, model, body, stream }) {
    const { model: _model, ...request } = body
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
    return {
      url: `${credential.baseUrl}/v1internal:${method}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credential.accessToken ?? ''}`, ...credential.headers },
      json: wrapCliRequest(model, credential.attributes.project ?? '', request),
      proxyUrl: credential.proxyUrl,
    }
  },
})
