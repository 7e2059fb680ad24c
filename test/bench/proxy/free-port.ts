import { createServer } from 'node:net'

/** A loopback port free right now, for peers that must be told their port. */
export const freePort = () => new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number }
    server.close(() => resolve(port))
  })
})
