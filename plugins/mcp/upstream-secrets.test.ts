import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { UpstreamServer } from './upstream.ts'
import { until } from '../../test/mcp/servers.ts'

const secret = 'env-secret-0123456789/abc+def'
let server: UpstreamServer | undefined
afterEach(async () => { await server?.close() })

describe('an MCP server\'s errors', () => {
  it('mask its own environment values when its stderr quotes them (state, logs)', async () => {
    const warned: string[] = []
    const script = "console.error('starting with TOKEN=' + process.env.TOKEN + ' ' + encodeURIComponent(process.env.TOKEN)); process.exit(3)"
    server = new UpstreamServer({ name: 'crash', command: process.execPath, args: ['-e', script], env: { TOKEN: secret, LEVEL: 'warn' } } as never, { changed() {}, log() {}, updated() {}, warn: message => warned.push(message), request: (() => {}) as never, maxLineBytes: () => 10 * 1024 * 1024 })
    server.start()
    await until(() => server!.state === 'down')
    const shown = `${server.error}\n${warned.join('\n')}`
    expect(shown).toContain('starting with TOKEN=env-...+def')
    expect(shown).not.toContain('0123456789')
  })

  it('mask the key a server\'s URL holds when the server quotes its URL', async () => {
    const http = createServer((req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such path ${req.url}`))
    await new Promise<void>(resolve => http.listen(0, '127.0.0.1', resolve))
    try {
      const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
      server = new UpstreamServer({ name: 'hosted', url: `${origin}/servers/${encodeURIComponent(secret)}/mcp?token=${encodeURIComponent(secret)}` } as never, { changed() {}, log() {}, updated() {}, warn() {}, request: (() => {}) as never, maxLineBytes: () => 10 * 1024 * 1024 })
      server.start()
      await until(() => server!.state === 'down')
      expect(server.error).toContain('no such path /servers/')
      expect(server.error).not.toContain('0123456789')
    } finally {
      await server?.close()
      await new Promise(resolve => { http.closeAllConnections(); http.close(resolve) })
    }
  })
})
