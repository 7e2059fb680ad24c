/**
 * The error body each endpoint answers in, by the path a request named. A client error must come back
 * in the format of the client that would call that path; anything else is "off-format".
 */
export type ErrorFormat = 'openai' | 'messages' | 'generate' | 'management' | 'generic'

export function formatOfPath(target: string): ErrorFormat {
  const path = target.split('?')[0]!
  if (path.startsWith('/v0/management/') || path === '/v0/management') return 'management'
  // The partner's provider routes answer in the format of the endpoint after the segment.
  const partner = /^\/api\/provider\/[^/]+(\/.*)$/.exec(path)
  if (partner) return formatOfPath(partner[1]!)
  if (path.startsWith('/v1/messages')) return 'messages'
  // genai 3 calls /v1/models/{model}:{method}: the generateContent format under /v1.
  if (path.startsWith('/v1beta/') || (path.startsWith('/v1/models/') && path.includes(':', 11))) return 'generate'
  if (path.startsWith('/v1/')) return 'openai'
  return 'generic'
}

const isString = (value: unknown) => typeof value === 'string' && value.length > 0

/** Why `body` is not an error in `format`, or undefined when it is. */
export function offFormat(format: ErrorFormat, body: string): string | undefined {
  let json: any
  try { json = JSON.parse(body) } catch { return `not JSON: ${JSON.stringify(body.slice(0, 80))}` }
  switch (format) {
    case 'messages':
      return json?.type === 'error' && isString(json.error?.type) && isString(json.error?.message) ? undefined : `not a messages error: ${body.slice(0, 120)}`
    case 'generate':
      return typeof json?.error?.code === 'number' && isString(json.error.message) && isString(json.error.status) ? undefined : `not a generateContent error: ${body.slice(0, 120)}`
    case 'management':
      return isString(json?.error) ? undefined : `not a management error: ${body.slice(0, 120)}`
    default:
      return isString(json?.error?.message) && isString(json.error.type) ? undefined : `not an {error: {message, type}} body: ${body.slice(0, 120)}`
  }
}
