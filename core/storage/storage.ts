import { mkdir } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { createStorage, type Driver, type Storage } from 'unstorage'
import { isAtomicTempFile, writeFileAtomic } from '../config/atomic-write.ts'
import { sweepAtomicTempFiles } from '../config/sweep-temp.ts'
import { clusterSafe, redisDriverOptions, type RedisStorageOptions } from './storage-redis.ts'

export { redisClientOptions } from './storage-redis.ts'

export type StorageOptions =
  | { driver: 'memory' }
  | { driver: 'fs'; base: string }
  | RedisStorageOptions

/**
 * A package's default export (a driver factory) through any loader: jiti without its interop Proxy
 * (core/cli/bin.mjs) may hand back a CommonJS `module.exports` itself, a namespace, or a namespace whose
 * default is the CommonJS namespace again (seen once from a jiti cache written by another loader mode:
 * `proxy start` with fs storage then failed with "fsDriver is not a function"). Unwrapped to the function.
 */
function defaultExport<T>(mod: { default: T } | T): T {
  let value: unknown = mod
  for (let depth = 0; depth < 3 && typeof value !== 'function' && value && typeof value === 'object' && 'default' in value; depth++) value = (value as { default: unknown }).default
  return value as T
}

/** State lives behind unstorage: memory in tests, fs on one machine, redis for several instances. */
export async function createProxyStorage(options: StorageOptions = { driver: 'memory' }): Promise<Storage> {
  if (options.driver === 'memory') return createStorage()
  if (options.driver === 'fs') {
    const fsDriver = defaultExport(await import('unstorage/drivers/fs-lite'))
    void sweepAtomicTempFiles(options.base, 8).catch(() => {})
    return createStorage({ driver: atomicWrites(fsDriver({ base: options.base, ignore: isAtomicTempFile }), options.base) })
  }
  const redisDriver = defaultExport(await import('unstorage/drivers/redis'))
  const driver = redisDriver(redisDriverOptions(options))
  // Errors are reported through the fleet's health (core/fleet); without a listener ioredis prints each one.
  ;(driver.getInstance?.() as { on?: (event: string, listener: () => void) => void } | undefined)?.on?.('error', () => {})
  return createStorage({ driver: options.cluster?.length ? clusterSafe(driver) : driver })
}

/** The storage's Redis client and key base, when its driver is redis. */
export function redisOf(storage: Storage): { client: import('ioredis').Redis | import('ioredis').Cluster; base: string } | undefined {
  const driver = storage.getMount('').driver as Driver & { getInstance?: () => unknown; options?: { base?: string } }
  if (driver.name !== 'redis' || !driver.getInstance) return undefined
  return { client: driver.getInstance() as import('ioredis').Redis, base: driver.options?.base ?? '' }
}

/**
 * The fs driver writes in place, so a crash mid-write leaves half a JSON value (a usage chunk, a
 * credential state) behind. Writes go through a temp file and a rename instead.
 */
function atomicWrites(driver: Driver, base: string): Driver {
  const path = (key: string) => join(resolve(base), key.replace(/:/g, '/'))
  const write = async (key: string, value: string | Uint8Array) => {
    if (/\.\.:|\.\.$/.test(key)) throw new Error(`invalid storage key: ${key}`)
    await mkdir(dirname(path(key)), { recursive: true })
    await writeFileAtomic(path(key), value)
  }
  return { ...driver, setItem: (key, value) => write(key, value), setItemRaw: (key, value) => write(key, value) }
}
