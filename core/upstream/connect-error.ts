type NetError = Error & { code?: string; address?: string; port?: number; cause?: unknown }

/** Connection failures in words, by code: what the client may read (no address, no host). */
const reasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer within timeouts.first-byte-seconds',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CLOSED: 'connection closed',
}

const innermost = (error: NetError): NetError => {
  let current = error
  for (let i = 0; i < 4 && current.cause instanceof Error; i++) current = current.cause as NetError
  return current
}

/** A request that got no answer: `message` for the client (never an address; whether an outbound proxy failed), `detail` for the log. */
export function describeConnectFailure(error: Error, proxyUrl?: string): { message: string; detail: string } {
  const cause = innermost(error as NetError)
  const code = cause.code ?? (error as NetError).code
  const detail = cause === error ? error.message : `${error.message} (${cause.message})`
  const known = code && reasons[code]
  const tls = /certificate|self[- ]signed|TLS|SSL/i.test(cause.message) ? 'TLS handshake failed' : undefined
  const reason = known || tls || 'connection failed'
  if (!proxyUrl) return { message: `upstream connection failed: ${reason}`, detail }
  let proxy: URL | undefined
  try { proxy = new URL(proxyUrl) } catch {}
  const tunnel = /Proxy response \((\d+)\)/.exec(`${error.message} ${cause.message}`)
  if (tunnel) return { message: `the outbound proxy refused the tunnel to the upstream (proxy answered ${tunnel[1]})`, detail }
  const atProxy = !!proxy && cause.port !== undefined && String(cause.port) === (proxy.port || (proxy.protocol === 'https:' ? '443' : proxy.protocol.startsWith('socks') ? '1080' : '80'))
  if (atProxy || /proxy|socks/i.test(cause.message)) return { message: `the outbound proxy could not be reached: ${reason}`, detail }
  return { message: `upstream connection through the outbound proxy failed: ${reason}`, detail }
}
