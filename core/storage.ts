import { createStorage, type Storage } from 'unstorage'

export type StorageOptions =
  | { driver: 'memory' }
  | { driver: 'fs'; base: string }
  | { driver: 'redis'; url?: string; base?: string }

/** State lives behind unstorage: memory in tests, fs on one machine, redis for several instances. */
export async function createProxyStorage(options: StorageOptions = { driver: 'memory' }): Promise<Storage> {
  if (options.driver === 'memory') return createStorage()
  if (options.driver === 'fs') {
    const { default: fsDriver } = await import('unstorage/drivers/fs-lite')
    return createStorage({ driver: fsDriver({ base: options.base }) })
  }
  const { default: redisDriver } = await import('unstorage/drivers/redis')
  return createStorage({ driver: redisDriver({ url: options.url ?? 'redis://127.0.0.1:6379', base: options.base ?? 'model-proxy' }) })
}
