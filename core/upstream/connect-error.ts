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

/** A request that got no answer: `message` for the client (never an address; whether an outbound proxy failed), `detail` for the log. */
export function describeConnectFailure(error: Error, proxyUrl?: string): { message: string; detail: string } {
  let cause = error as NetError
  for (let i = 0; i < 4 && cause.cause instanceof Error; i++) cause = cause.cause as NetError
  const code = cause.code ?? (error as NetError).code
  const detail = cause === error ? error.message : `${error.message} (${cause.message})`
  const reason = (code && reasons[code]) || (/certificate|self[- ]signed|TLS|SSL/i.test(cause.message) ? 'TLS handshake failed' : 'connection failed')
  if (!proxyUrl) return { message: `upstream connection failed: ${reason}`, detail }
  const proxy = URL.parse(proxyUrl)
  const tunnel = /Proxy response \((\d+)\)/.exec(`${error.message} ${cause.message}`)
  if (tunnel) return { message: `the outbound proxy refused the tunnel to the upstream (proxy answered ${tunnel[1]})`, detail }
  const atProxy = !!proxy && cause.port !== undefined && String(cause.port) === (proxy.port || (proxy.protocol === 'https:' ? '443' : proxy.protocol.startsWith('socks') ? '1080' : '80'))
  if (atProxy || /proxy|socks/i.test(cause.message)) return { message: `the outbound proxy could not be reached: ${reason}`, detail }
  return { message: `upstream connection through the outbound proxy failed: ${reason}`, detail }
}
