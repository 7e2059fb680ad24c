import { z } from 'zod'

const text = () => z.string({ error: 'must be a string' })
const hostPorts = () => z.array(text().regex(/^[^\s:]+:\d{1,5}$/, { error: 'must be host:port' }))

/**
 * `storage` in config.yaml: where state lives, settable without code (a container or a chart value).
 * Read once at start; a change needs a restart. Absent keys fall back to proxy.config.ts, then to fs
 * under `.data/`. Environment variables (`PROXY_STORAGE_*`) win over both.
 */
export const storageSchema = z.object({
  driver: z.enum(['fs', 'redis', 'memory'], { error: 'must be fs, redis or memory' }).optional(),
  /** redis: `redis://[user:password@]host:port[/db]`, `rediss://` for TLS. */
  url: text().optional(),
  /** redis: the key prefix every instance of one proxy shares. */
  prefix: text().optional(),
  /** fs: the folder, relative to the YAML file's folder. */
  path: text().optional(),
  /** redis: the ACL user and password, when not in the URL (the password best by `${env:…}` or `${file:…}`). */
  username: text().optional(),
  password: text().optional(),
  /** redis Sentinel: sentinel addresses and the monitored master's name. */
  sentinels: hostPorts().optional(),
  'sentinel-name': text().optional(),
  /** redis Cluster: seed nodes (any few of the cluster's nodes). */
  cluster: hostPorts().optional(),
  /** redis over TLS (also implied by `rediss://`): a CA bundle file for a private CA. */
  'tls-ca-file': text().optional(),
}).optional()

export type StorageSettings = NonNullable<z.infer<typeof storageSchema>>
