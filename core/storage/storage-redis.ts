import { readFileSync } from 'node:fs'
import type { Cluster, Redis, RedisOptions } from 'ioredis'
import type { Driver } from 'unstorage'

/** Where a redis storage connects: a URL, a Sentinel group or a Cluster, with an ACL user and TLS. */
export interface RedisStorageOptions {
  driver: 'redis'
  /** `redis://[user:password@]host:port[/db]`; `rediss://` = TLS. Default `redis://127.0.0.1:6379`. */
  url?: string
  /** Key prefix shared by the instances of one proxy. */
  base?: string
  username?: string
  password?: string
  /** Cluster seed nodes: the client learns the rest of the cluster from them. */
  cluster?: Array<{ host: string; port: number }>
  /** Sentinels and the master's name they watch. */
  sentinels?: Array<{ host: string; port: number }>
  sentinelName?: string
  /** A CA bundle for a private CA (TLS on, also without `rediss://`). */
  tlsCaFile?: string
}

/**
 * ioredis, bounded: by default a command waits for Redis through 20 reconnection attempts and a hung
 * server holds it forever. Here a command made while Redis is away fails at the first failed attempt,
 * none takes longer than `commandTimeout`, nothing is resent behind the caller's back (callers retry
 * what they own, with the same key), and reconnection is tried every second at most.
 */
export const redisClientOptions = {
  enableOfflineQueue: true,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: 2000,
  connectTimeout: 2000,
  retryStrategy: (times: number) => Math.min(100 * times, 1000),
}

/** The options unstorage's redis driver passes to ioredis (`new Redis(url, options)` or `new Cluster(nodes, clusterOptions)`). */
export function redisDriverOptions(options: RedisStorageOptions): Record<string, unknown> {
  const tls = options.tlsCaFile ? { ca: readFileSync(options.tlsCaFile) } : options.url?.startsWith('rediss:') ? {} : undefined
  const auth: RedisOptions = { ...(options.username && { username: options.username }), ...(options.password && { password: options.password }), ...(tls && { tls }) }
  const base = options.base ?? 'model-proxy'
  if (options.cluster?.length) {
    const { retryStrategy, ...perNode } = redisClientOptions
    return {
      base,
      cluster: options.cluster,
      clusterOptions: { enableOfflineQueue: true, clusterRetryStrategy: retryStrategy, slotsRefreshTimeout: 2000, redisOptions: { ...perNode, ...auth } },
      preConnect: true,
    }
  }
  if (options.sentinels?.length) return { base, ...redisClientOptions, ...auth, sentinels: options.sentinels, name: options.sentinelName ?? 'mymaster', preConnect: true }
  return { base, url: options.url ?? 'redis://127.0.0.1:6379', ...redisClientOptions, ...auth, preConnect: true }
}

const isCluster = (client: Redis | Cluster): client is Cluster => (client as Cluster).isCluster === true

/**
 * A Cluster spreads keys over its masters: SCAN and MGET reach one node only (or are refused across
 * slots). Listing scans every master; reading many keys reads them one by one (pipelined by ioredis).
 */
export function clusterSafe(driver: Driver): Driver {
  const client = () => driver.getInstance!() as Redis | Cluster
  const base = ((driver.options as { base?: string } | undefined)?.base ?? '').replace(/:$/, '')
  const full = (key: string) => base ? `${base}:${key}` : key
  const short = (key: string) => base && key.startsWith(`${base}:`) ? key.slice(base.length + 1) : key
  const scanAll = async (prefix: string): Promise<string[]> => {
    const redis = client()
    if (!isCluster(redis)) throw new Error('not a cluster')
    const pattern = `${(prefix ? full(prefix) : base).replace(/[*?[\]\\]/g, '\\$&')}${prefix || base ? ':' : ''}*`
    const keys = new Set<string>()
    await Promise.all(redis.nodes('master').map(async (node) => {
      let cursor = '0'
      do {
        const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500)
        cursor = next
        for (const key of found) keys.add(key)
      } while (cursor !== '0')
    }))
    return [...keys]
  }
  return {
    ...driver,
    async getItems(items, options) {
      const redis = client()
      if (!isCluster(redis)) return driver.getItems!(items, options)
      const values = await Promise.all(items.map(item => redis.get(full(item.key))))
      return items.map((item, i) => ({ key: item.key, value: values[i] ?? null }))
    },
    async getKeys(prefix, options) {
      return isCluster(client()) ? (await scanAll(prefix)).map(short) : driver.getKeys(prefix, options)
    },
    async clear(prefix, options) {
      if (!isCluster(client())) return driver.clear?.(prefix, options)
      const redis = client()
      await Promise.all((await scanAll(prefix)).map(key => redis.unlink(key)))
    },
  }
}
