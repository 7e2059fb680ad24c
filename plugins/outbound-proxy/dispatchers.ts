import type { Dispatcher } from 'undici'
import { loadUndici } from 'model-proxy/kit/http'

const pool = { keepAliveTimeout: 30_000, connections: 64 }

/** `http://` and `https://` proxies: CONNECT tunnels, user:pass sent as Proxy-Authorization by undici. */
export function httpProxyDispatcher(proxyUrl: string): Dispatcher {
  return new (loadUndici().ProxyAgent)({ uri: proxyUrl, ...pool })
}

/** `socks5://[user:pass@]host:port`: undici's own SOCKS5 agent (TLS to the upstream runs through it). */
export function socksProxyDispatcher(proxyUrl: string): Dispatcher {
  const url = new URL(proxyUrl)
  return new (loadUndici().Socks5ProxyAgent)(`socks5://${url.host}`, {
    ...pool,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
  })
}
