import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createProxy } from '../../core/app.ts'
import { listen } from '../../core/runtime/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'
import type { TestProxy } from '../helpers/proxy-server.ts'

export interface PartnerRecord { method: string; url: string; headers: IncomingMessage['headers']; body: string }

export interface PartnerMock {
  url: string
  received: PartnerRecord[]
  /** Called with each request's first body chunk as soon as it arrives (before the body ends). */
  onFirstChunk?: (chunk: string) => void
  /** Replace to answer differently; the default echoes what it got as JSON. */
  handler: (req: IncomingMessage, res: ServerResponse, record: PartnerRecord) => void | Promise<void>
  close(): Promise<void>
}

export const echo = (res: ServerResponse, record: PartnerRecord) => {
  res.writeHead(200, { 'content-type': 'application/json', 'x-partner-echo': 'yes', 'set-cookie': 'session=partner-session; Path=/' })
  res.end(JSON.stringify({ method: record.method, url: record.url, body: record.body }))
}

/** The partner upstream: a plain node:http server on a random loopback port recording what it receives. */
export async function startPartnerMock(): Promise<PartnerMock> {
  const mock: PartnerMock = {
    url: '',
    received: [],
    handler: (_req, res, record) => echo(res, record),
    close: () => new Promise(resolve => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    try {
      for await (const chunk of req) {
        if (!chunks.length) mock.onFirstChunk?.((chunk as Buffer).toString('utf8'))
        chunks.push(chunk as Buffer)
      }
    } catch {
      return // the proxy gave up on this request mid-body (e.g. a body over the size limit)
    }
    const record = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
    mock.received.push(record)
    await mock.handler(req, res, record)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return mock
}

/** Lets a test play a remote client: `x-test-client-ip` becomes the client's address (kernel.services.clientAddress). */
export const fakeAddressPlugin = defineProxyPlugin({
  name: 'test-client-address',
  setup(kernel) {
    kernel.services.clientAddress = event => event.req.headers.get('x-test-client-ip') ?? '127.0.0.1'
  },
})

export interface LoggedProxy extends TestProxy { lines: string[] }

/** A proxy on a random loopback port whose log lines (every level) are kept for assertions. */
export async function startPartnerProxy(rawConfig: Record<string, unknown>, configPath?: string): Promise<LoggedProxy> {
  const lines: string[] = []
  const keep = (...args: unknown[]) => { lines.push(args.map(String).join(' ')) }
  const logger = { info: keep, warn: keep, debug: keep, log: keep, success: keep, error: keep, withTag: () => logger } as never
  const config = validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...rawConfig })
  const proxy = await createProxy({ config, plugins: [fakeAddressPlugin], logger, configPath })
  const server = await listen(() => proxy, config, { port: 0, host: '127.0.0.1' })
  return {
    url: server.url, proxy, server, lines,
    async close() {
      await server.close()
      await proxy.close()
    },
  }
}

/** Read an SSE/JSON body chunk by chunk. */
export async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value, done } = await reader.read()
  return done ? '' : new TextDecoder().decode(value)
}
