import { generateChunks, mergeChunks, promptTokens, type GenerateBody, type GenerateChunk } from './generate-turn.ts'
import { bearerToken, json, streamOf } from './wire.ts'

const error = (code: number, status: string, message: string) => json({ error: { code, message, status } }, code)

const mockModel = {
  name: 'models/mock-gemini',
  version: '001',
  displayName: 'Mock Gemini',
  description: 'The playground mock generateContent model.',
  inputTokenLimit: 1048576,
  outputTokenLimit: 65536,
  supportedGenerationMethods: ['generateContent', 'countTokens'],
  temperature: 1,
  topP: 0.95,
  topK: 64,
  maxTemperature: 2,
  thinking: true,
}

/** `data:` frames as the real API sends them (CRLF-delimited), or a JSON array streamed element by element. */
function streamChunks(chunks: unknown[], sse: boolean): Response {
  if (sse) return streamOf(chunks.map(chunk => `data: ${JSON.stringify(chunk)}\r\n\r\n`))
  const frames = chunks.map((chunk, i) => `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(chunk)}`)
  frames.push(chunks.length ? ']' : '[]')
  return streamOf(frames, { 'content-type': 'application/json; charset=UTF-8' })
}

/**
 * A mock generateContent upstream as a fetch handler: the public API (`/v1beta/models/{model}:generateContent`,
 * `:streamGenerateContent[?alt=sse]`, `:countTokens`, `GET /v1beta/models`) and the alpha-cli internal
 * channel (`/v1internal:{method}` taking `{model, project, request}` and answering `{response}`).
 */
export async function generateMock(request: Request, basePath = ''): Promise<Response> {
  const url = new URL(request.url)
  const path = url.pathname.slice(basePath.length)
  if (!request.headers.get('x-goog-api-key') && !url.searchParams.get('key') && !bearerToken(request)) {
    return error(401, 'UNAUTHENTICATED', 'Request is missing required authentication credential. Expected an API key (x-goog-api-key or ?key=) or an OAuth 2 access token.')
  }
  if (request.method === 'GET' && /^\/v1(beta|alpha)?\/models$/.test(path)) return json({ models: [mockModel] })

  const publicCall = /^\/v1(?:beta|alpha)?\/models\/([^:]+):(\w+)$/.exec(path)
  const internalCall = /^\/v1internal:(\w+)$/.exec(path)
  if (request.method !== 'POST' || (!publicCall && !internalCall)) return error(404, 'NOT_FOUND', `Method not found: ${request.method} ${path}`)
  const method = publicCall ? publicCall[2]! : internalCall![1]!
  const raw = await request.json() as GenerateBody & { model?: string; request?: GenerateBody & { model?: string }; generateContentRequest?: GenerateBody }

  // The internal channel wraps the request (`{model, project, request}`) and the answer (`{response}`).
  const body: GenerateBody = (internalCall ? raw.request : raw) ?? {}
  const model = (publicCall ? decodeURIComponent(publicCall[1]!) : raw.model ?? raw.request?.model ?? '').replace(/^models\//, '')
  const wrap = (chunk: unknown) => internalCall ? { response: chunk } : chunk

  if (method === 'countTokens') {
    const counted = raw.generateContentRequest ?? body
    return json({ totalTokens: promptTokens(counted) })
  }
  if (method !== 'generateContent' && method !== 'streamGenerateContent') return error(404, 'NOT_FOUND', `Method not found: ${method}`)
  if (!model) return error(400, 'INVALID_ARGUMENT', 'model is required')
  if (!Array.isArray(body.contents) || body.contents.length === 0) return error(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified')

  const chunks: GenerateChunk[] = generateChunks(body, model)
  if (method === 'generateContent') return json(wrap(mergeChunks(chunks)))
  return streamChunks(chunks.map(wrap), url.searchParams.get('alt') === 'sse')
}
