import { generateMock } from './generate.ts'

/**
 * A mock of the cloud platform's relay of generateContent (the delta family): the same wire format as
 * alpha under the platform's paths, `/v1/publishers/google/models/{model}:{method}` (API keys) and
 * `/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:{method}` (service
 * accounts). Anything else is a 404, as on the platform.
 */
export function deltaMock(request: Request, basePath = ''): Promise<Response> | Response {
  const url = new URL(request.url)
  const path = url.pathname.slice(basePath.length)
  const match = /^\/v1\/(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/models\/([^/:]+:\w+)$/.exec(path)
  if (!match) return new Response(JSON.stringify({ error: { code: 404, message: `Not found: ${path}`, status: 'NOT_FOUND' } }), { status: 404, headers: { 'content-type': 'application/json' } })
  url.pathname = `/v1beta/models/${match[1]}`
  return generateMock(new Request(url, request))
}
