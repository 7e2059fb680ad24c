import { defineProxyPlugin } from '../../core/index.ts'
import { generateMock } from './generate.ts'
import { deltaMock } from './delta.ts'
import { messagesMock } from './messages.ts'
import { openaiMock } from './openai.ts'
import { responsesMock } from './responses.ts'

const configuredOrigin = 'http://127.0.0.1:8317'

/**
 * Mounts the mock upstreams on the proxy itself under `/mock/...`, so the playground answers with no
 * keys and no second port. Playground only: real configs never load this.
 */
export default defineProxyPlugin({
  name: 'playground-mock-upstream',
  setup(kernel) {
    kernel.app.all('/mock/openai/**', event => openaiMock(event.req, '/mock/openai'))
    kernel.app.all('/mock/beta/**', event => messagesMock(event.req, '/mock/beta'))
    kernel.app.all('/mock/gamma/**', event => responsesMock(event.req, '/mock/gamma'))
    kernel.app.all('/mock/alpha/**', event => generateMock(event.req, '/mock/alpha'))
    kernel.app.all('/mock/delta/**', event => deltaMock(event.req, '/mock/delta'))
    // config.yaml names port 8317; with `proxy dev --port N` the mock lives on N instead. In-process
    // requests (a replay, a /v1/ws turn) carry no port of their own: they use the one the last request
    // from outside came in on (the management call that asked for the replay, the socket's upgrade).
    let servedPort = ''
    kernel.app.use((event) => {
      if (event.url.hostname !== 'proxy.internal' && event.url.port) servedPort = event.url.port
    })
    kernel.hooks.hook('before-upstream', ({ request, http }) => {
      if (!http.url.startsWith(`${configuredOrigin}/mock/`)) return
      const port = request.event.url.hostname === 'proxy.internal' ? servedPort : request.event.url.port
      http.url = `http://127.0.0.1:${port || 8317}${http.url.slice(configuredOrigin.length)}`
    })
  },
})
