/** Client endpoints reachable over `/v1/ws` (POST ones; generateContent paths by pattern). */
const endpoints = new Set(['/v1/chat/completions', '/v1/completions', '/v1/responses', '/v1/responses/compact', '/v1/messages', '/v1/messages/count_tokens'])
const generatePath = /^\/v1beta\/models\/[^/]+:(?:generateContent|streamGenerateContent|countTokens)$/

const base = 'http://proxy.internal'

/**
 * An envelope's `path` as the request the proxy will make to itself (pathname and query), or undefined
 * when it is not a client endpoint. The path is resolved the way the URL parser will resolve it (`\` is
 * `/`, `%2e` is `.`, `..` climbs) before it is checked, and the resolved form is the one sent: what is
 * checked is what runs.
 */
export function resolveEnvelopePath(path: string): string | undefined {
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return undefined
  let url: URL
  try {
    url = new URL(path, base)
  } catch {
    return undefined
  }
  if (url.origin !== base) return undefined
  return endpoints.has(url.pathname) || generatePath.test(url.pathname) ? url.pathname + url.search : undefined
}
