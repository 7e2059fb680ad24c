import { ProxyAgent, Socks5ProxyAgent, type Dispatcher } from 'undici'

const pool = { keepAliveTimeout: 30_000, connections: 64 }

/** `http://` and `https://` proxies: CONNECT tunnels, user:pass sent as Proxy-Authorization by undici. */
export function httpProxyDispatcher(proxyUrl: string): Dispatcher {
  return new ProxyAgent({ uri: proxyUrl, ...pool })
}

/** `socks5://[user:pass@]host:port`: undici's own SOCKS5 agent (TLS to the upstream runs through it). */
export function socksProxyDispatcher(proxyUrl: string): Dispatcher {
  const url = new URL(proxyUrl)
  return new Socks5ProxyAgent(`socks5://${url.host}`, {
    ...pool,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
  })
}
