import { defineProxyPlugin } from 'model-proxy'
import { proxyDispatcherFactories } from 'model-proxy/kit/http'
import { httpProxyDispatcher, socksProxyDispatcher } from './dispatchers.ts'

/**
 * Outbound proxies: `proxy-url` globally, overridden per credential entry (an empty string
 * there means direct). The kernel resolves which URL applies; this plugin supplies the dispatchers.
 */
export default defineProxyPlugin({
  name: 'outbound-proxy',
  setup() {
    proxyDispatcherFactories.set('http', httpProxyDispatcher)
    proxyDispatcherFactories.set('https', httpProxyDispatcher)
    proxyDispatcherFactories.set('socks5', socksProxyDispatcher)
    proxyDispatcherFactories.set('socks5h', socksProxyDispatcher)
  },
})
