/** Hop-by-hop headers (RFC 9110 7.6.1) and the ones the HTTP client sets itself. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host'])
/** Every way a client sends its key to us (and the management secret): none of it goes to the partner. */
const clientCredentials = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'x-management-key'])

/** Header names a `Connection` header lists are hop-by-hop too. */
function connectionTokens(value: string | null | undefined): Set<string> {
  return new Set((value ?? '').split(',').map(token => token.trim().toLowerCase()).filter(Boolean))
}

/**
 * Client request headers as the partner upstream gets them: hop-by-hop headers and the client's own key
 * removed, the partner key in their place (`Authorization: Bearer` and `X-Api-Key`, as the partner's
 * tool sends it). `bodyRewritten`: the body is not the client's bytes, so its length is recomputed.
 */
export function partnerRequestHeaders(headers: Headers, partnerKey: string | undefined, bodyRewritten = false): Record<string, string> {
  const listed = connectionTokens(headers.get('connection'))
  const out: Record<string, string> = {}
  for (const [name, value] of headers) {
    if (hopByHop.has(name) || listed.has(name) || clientCredentials.has(name)) continue
    if (bodyRewritten && (name === 'content-length' || name === 'content-encoding')) continue
    out[name] = value
  }
  if (partnerKey) {
    out.authorization = `Bearer ${partnerKey}`
    out['x-api-key'] = partnerKey
  }
  return out
}

/**
 * Partner response headers as the client gets them: hop-by-hop headers removed, and `Set-Cookie`
 * never passed on (a partner session opened with our partner key is not the client's to keep).
 */
export function partnerResponseHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const listed = connectionTokens(typeof headers.connection === 'string' ? headers.connection : undefined)
  const out = new Headers()
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (value === undefined || hopByHop.has(lower) || listed.has(lower) || lower === 'set-cookie') continue
    for (const item of Array.isArray(value) ? value : [value]) out.append(lower, item)
  }
  return out
}

/** The query string minus a `?key=` that carried the client's key (generateContent clients send it there). */
export function partnerSearch(url: URL, isClientKey: (key: string) => boolean): string {
  const key = url.searchParams.get('key')
  if (key === null || !isClientKey(key)) return url.search
  const params = new URLSearchParams(url.search)
  params.delete('key')
  const search = params.toString()
  return search ? `?${search}` : ''
}
