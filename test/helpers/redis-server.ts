import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * A loopback port nothing listens on, for an address that must refuse connections. Taken below the
 * kernel's ephemeral range (32768 and up on Linux), so no server of this run that listens on port 0 is
 * handed it later (a port `freePort` just released can come back to the next such server).
 */
export async function closedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    const refused = await new Promise<boolean>(resolve => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => { socket.destroy(); resolve(false) })
      socket.once('error', () => resolve(true))
    })
    if (refused) return port
  }
}

export interface OwnRedis {
  url: string
  port: number
  /** Stop it: `save` writes the data set first (a clean restart keeps it), else it is gone (SIGKILL). */
  stop(options?: { save?: boolean }): Promise<void>
  start(): Promise<void>
  /** Remove what a saving stop wrote: the next start is empty. */
  forget(): void
  /** SIGSTOP: connections stay open and commands hang (a frozen host, a long fork), no error reaches a client. */
  pause(): void
  /** SIGCONT after `pause`: the commands it held are run then. */
  resume(): void
  close(): Promise<void>
}

/**
 * A redis-server of the test's own on a free port, so it can be stopped and restarted (never the shared
 * one on 6379). No persistence but what `stop({save: true})` writes, into a temp folder removed on close.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'proxy-redis-'))
  let child: ChildProcess | undefined
  const start = () => new Promise<void>((resolve, reject) => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    child = proc
    let out = ''
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('Ready to accept connections')) resolve()
    }
    proc.stdout!.on('data', onData)
    proc.once('exit', code => reject(new Error(`redis-server exited (${code}): ${out}`)))
  })
  const stop = async ({ save = false } = {}) => {
    const proc = child
    if (!proc || proc.exitCode !== null) return
    child = undefined
    const exited = new Promise(resolve => proc.once('exit', resolve))
    if (save) {
      const { Redis } = await import('ioredis')
      const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 })
      await client.connect()
      await client.call('SHUTDOWN', 'SAVE').catch(() => {})
      client.disconnect()
    } else {
      proc.kill('SIGKILL')
    }
    await exited
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    forget: () => rmSync(join(dir, 'dump.rdb'), { force: true }),
    pause: () => { child?.kill('SIGSTOP') },
    resume: () => { child?.kill('SIGCONT') },
    async close() {
      // A test that failed while Redis was paused leaves no frozen server behind.
      child?.kill('SIGCONT')
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Deletes every key a test wrote under `base` on the shared Redis at 6379 (its own prefix: others' keys stay). */
export async function dropRedisKeys(base: string): Promise<void> {
  const { createProxyStorage, redisOf } = await import('../../core/storage/storage.ts')
  const storage = await createProxyStorage({ driver: 'redis', url: 'redis://127.0.0.1:6379', base })
  const client = redisOf(storage)!.client as import('ioredis').Redis
  const keys = await client.keys(`${base}*`)
  if (keys.length) await client.del(...keys)
  await storage.dispose()
}
