import { type ProxyKernel, ProxyError } from 'model-proxy'
import { pathErrorResponse } from 'model-proxy/kit/errors'
import { addClientRoute, readClientBody, createProxyRequest, runPipeline, jsonResponse } from 'model-proxy/kit/http'
import { countRequestTokens } from 'model-proxy/kit/tokens'
import { checkModelAllowed } from 'model-proxy/kit/access'
import { generateCodec } from './codec/index.ts'
import { countTokensBody } from './codec/count-tokens-body.ts'

/** `models/gemini-x:generateContent` or `gemini-x:generateContent` -> [model, method]. */
export function splitModelMethod(tail: string): [string, string | undefined] {
  const path = decodeURIComponent(tail).replace(/^models\//, '')
  const colon = path.lastIndexOf(':')
  return colon === -1 ? [path, undefined] : [path.slice(0, colon), path.slice(colon + 1)]
}

/**
 * The generateContent client endpoints: `POST {version}/models/{model}:generateContent`,
 * `:streamGenerateContent` and `:countTokens` under `/v1beta` and `/v1` (genai 3's default API version).
 * The model listings (`GET .../models`) are the models plugin's.
 */
export function addGenerateRoutes(kernel: ProxyKernel): void {
  for (const prefix of ['/v1beta/models/', '/v1/models/']) {
    addClientRoute(kernel, {
      method: 'POST',
      path: `${prefix}**`,
      format: 'generate',
      async handler(event, clientKey) {
        const [model, method] = splitModelMethod(event.url.pathname.slice(prefix.length))
        if (method !== 'generateContent' && method !== 'streamGenerateContent' && method !== 'countTokens') {
          // Under /v1 only `{model}:{method}` is a generateContent call; any other POST there is no route, in the OpenAI format of /v1.
          if (method === undefined && prefix === '/v1/models/') return pathErrorResponse(kernel, event.url.pathname, { status: 404, message: `no route for POST ${event.url.pathname}`, type: 'invalid_request_error', code: 'not_found' })
          throw new ProxyError(404, `unknown method ${method ?? '(none)'}: use generateContent, streamGenerateContent or countTokens`, 'invalid_request_error')
        }
        // Parsed by parts: long strings noted for a translated body, parts of the last turn copied (core/json/client-body.ts).
        const client = await readClientBody(event, clientKey)
        const raw = client.object()
        // countTokens may wrap the request ({generateContentRequest: {...}}); it is answered here, so checked as the vendor would.
        const body = method === 'countTokens' ? countTokensBody(raw) : raw
        const canonical = generateCodec.request.decode({ ...body, model })
        if (method === 'countTokens') {
          checkModelAllowed(kernel, clientKey, model)
          return jsonResponse({ totalTokens: await countRequestTokens(canonical) })
        }
        const stream = method === 'streamGenerateContent'
        const request = createProxyRequest(event, { inbound: 'generate', endpoint: 'generate', body, model, stream, clientKey, clientBytes: client.bytes })
        request.canonical = { ...canonical, stream }
        return runPipeline(kernel, request, { sse: !stream || event.url.searchParams.get('alt') === 'sse' })
      },
    })
  }
}
