import type { WireFormat } from 'model-proxy'

/**
 * The provider segments of `/api/provider/{segment}/...`, one per wire format, named after the family
 * whose format it is. A segment serves only its own format's endpoint.
 */
export const providerSegments: Record<string, WireFormat> = { compat: 'chat', beta: 'messages', alpha: 'generate' }

const prefix = '/api/provider/'

/** `/api/provider/beta/v1/messages` -> `{segment: 'beta', localPath: '/v1/messages'}`. */
export function splitProviderPath(pathname: string): { segment: string; localPath: string } | undefined {
  if (!pathname.startsWith(prefix)) return undefined
  const rest = pathname.slice(prefix.length)
  const slash = rest.indexOf('/')
  if (slash <= 0) return undefined
  return { segment: rest.slice(0, slash), localPath: rest.slice(slash) }
}

/** `/v1beta/models/...` and `/v1/models/...` (genai 3's default API version). */
const generatePath = /^\/v1(?:beta)?\/models\/([^/]+)$/

/** The format a local client path speaks, when it is one of the three aliased endpoints. */
export function formatOfLocalPath(localPath: string): WireFormat | undefined {
  if (localPath === '/v1/chat/completions') return 'chat'
  if (localPath === '/v1/messages') return 'messages'
  const method = generateModelMethod(localPath)?.[1]
  return method === 'generateContent' || method === 'streamGenerateContent' ? 'generate' : undefined
}

/** `/v1beta/models/gemini-x:streamGenerateContent` (or `/v1/...`) -> `['gemini-x', 'streamGenerateContent']`. */
export function generateModelMethod(localPath: string): [string, string] | undefined {
  const tail = generatePath.exec(localPath)?.[1]
  if (!tail) return undefined
  let decoded: string
  try { decoded = decodeURIComponent(tail) } catch { return undefined }
  const colon = decoded.lastIndexOf(':')
  return colon > 0 ? [decoded.slice(0, colon), decoded.slice(colon + 1)] : undefined
}

/** What the client is told when a segment and an endpoint do not belong together. */
export const segmentHelp = Object.entries(providerSegments).map(([segment, format]) => `${segment} (${format})`).join(', ')
