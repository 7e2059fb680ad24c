/** Never forwarded: credentials, cookies, hop-by-hop and framing headers (ours differ), CORS (ours). */
const blocked = new Set([
  'authorization', 'proxy-authorization', 'set-cookie', 'cookie', 'www-authenticate', 'proxy-authenticate',
  'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'content-type',
  'upgrade', 'te', 'trailer', 'date', 'server', 'alt-svc', 'strict-transport-security', 'via',
])

/** Upstream response headers a client may see (rule 15): request ids, rate limits, provider headers. */
export function passthroughHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (value === undefined || blocked.has(lower) || lower.startsWith('access-control-') || lower.startsWith('proxy-')) continue
    out[lower] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}
