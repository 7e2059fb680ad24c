import { createServer as createHttpServer } from 'node:http'
import { createServer as createNetServer, connect, type Socket, type AddressInfo, type Server } from 'node:net'

export interface ForwardProxy { url: string; connections: string[]; close(): Promise<void> }

const closeServer = (server: Server) => new Promise<void>(resolve => server.close(() => resolve()))

/** A real HTTP CONNECT proxy on loopback; with `auth`, it demands `Proxy-Authorization: Basic`. */
export async function startConnectProxy(auth?: { user: string; pass: string }): Promise<ForwardProxy> {
  const connections: string[] = []
  const sockets = new Set<Socket>()
  const server = createHttpServer()
  server.on('connect', (req, client: Socket, head) => {
    sockets.add(client)
    const expected = auth && `Basic ${Buffer.from(`${auth.user}:${auth.pass}`).toString('base64')}`
    if (expected && req.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
      return
    }
    connections.push(req.url!)
    const [host, port] = req.url!.split(':')
    const target = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      target.write(head)
      target.pipe(client).pipe(target)
    })
    sockets.add(target)
    target.on('error', () => client.destroy())
    client.on('error', () => target.destroy())
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const credentials = auth ? `${auth.user}:${auth.pass}@` : ''
  return {
    url: `http://${credentials}127.0.0.1:${port}`,
    connections,
    async close() {
      for (const socket of sockets) socket.destroy()
      await closeServer(server as unknown as Server)
    },
  }
}

/** Reads exactly n bytes from a socket, buffering what arrives. */
function reader(socket: Socket) {
  let buffered = Buffer.alloc(0)
  let waiting: (() => void) | undefined
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    waiting?.()
  })
  return async (n: number): Promise<Buffer> => {
    while (buffered.length < n) await new Promise<void>(resolve => { waiting = resolve })
    const out = buffered.subarray(0, n)
    buffered = buffered.subarray(n)
    return out
  }
}

/** A real SOCKS5 server (RFC 1928, with RFC 1929 user/pass when `auth` is set) on loopback. */
export async function startSocksProxy(auth?: { user: string; pass: string }): Promise<ForwardProxy> {
  const connections: string[] = []
  const sockets = new Set<Socket>()
  const server = createNetServer(async (client) => {
    sockets.add(client)
    client.on('error', () => {})
    const read = reader(client)
    const [, methodCount] = await read(2)
    const methods = [...await read(methodCount!)]
    const method = auth ? 0x02 : 0x00
    if (!methods.includes(method)) return client.end(Buffer.from([5, 0xff]))
    client.write(Buffer.from([5, method]))
    if (auth) {
      const [, userLength] = await read(2)
      const user = (await read(userLength!)).toString()
      const [passLength] = await read(1)
      const pass = (await read(passLength!)).toString()
      const ok = user === auth.user && pass === auth.pass
      client.write(Buffer.from([1, ok ? 0 : 1]))
      if (!ok) return client.end()
    }
    const [, command, , addressType] = await read(4)
    let host: string
    if (addressType === 1) host = [...await read(4)].join('.')
    else if (addressType === 3) host = (await read((await read(1))[0]!)).toString()
    else host = (await read(16)).toString('hex').match(/.{4}/g)!.join(':')
    const port = (await read(2)).readUInt16BE(0)
    if (command !== 1) return client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]))
    client.removeAllListeners('data')
    connections.push(`${host}:${port}`)
    const target = connect(port, host, () => {
      client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]))
      target.pipe(client).pipe(target)
    })
    sockets.add(target)
    target.on('error', () => client.destroy())
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const credentials = auth ? `${auth.user}:${auth.pass}@` : ''
  return {
    url: `socks5://${credentials}127.0.0.1:${port}`,
    connections,
    async close() {
      for (const socket of sockets) socket.destroy()
      await closeServer(server)
    },
  }
}
