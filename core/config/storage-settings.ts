import { isAbsolute, resolve } from 'node:path'
import type { StorageOptions } from '../storage/storage.ts'
import { storageSchema, type StorageSettings } from './storage-schema.ts'
import { ConfigError } from './validate.ts'

export { storageSchema, type StorageSettings }

/** The environment variables, one per key (lists comma-separated). */
export const storageEnv = {
  driver: 'PROXY_STORAGE_DRIVER',
  url: 'PROXY_STORAGE_URL',
  prefix: 'PROXY_STORAGE_PREFIX',
  path: 'PROXY_STORAGE_PATH',
  username: 'PROXY_STORAGE_USERNAME',
  password: 'PROXY_STORAGE_PASSWORD',
  sentinels: 'PROXY_STORAGE_SENTINELS',
  'sentinel-name': 'PROXY_STORAGE_SENTINEL_NAME',
  cluster: 'PROXY_STORAGE_CLUSTER',
  'tls-ca-file': 'PROXY_STORAGE_TLS_CA_FILE',
} as const satisfies Record<keyof StorageSettings, string>

/** The `storage` keys set by environment; `PROXY_STORAGE_PASSWORD_FILE` reads the password from a file. */
export function storageSettingsFromEnv(env: NodeJS.ProcessEnv, readFile: (path: string) => string): StorageSettings {
  const out: Record<string, unknown> = {}
  for (const [key, name] of Object.entries(storageEnv)) {
    const value = env[name]
    if (!value) continue
    out[key] = key === 'sentinels' || key === 'cluster' ? value.split(',').map(item => item.trim()).filter(Boolean) : value
  }
  const passwordFile = env.PROXY_STORAGE_PASSWORD_FILE
  if (!out.password && passwordFile) {
    try {
      out.password = readFile(passwordFile).trim()
    } catch (error) {
      throw new ConfigError([`PROXY_STORAGE_PASSWORD_FILE: cannot read ${passwordFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`])
    }
  }
  const parsed = storageSchema.safeParse(out)
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map(issue => `${storageEnv[issue.path[0] as keyof StorageSettings] ?? issue.path.join('.')}: ${issue.message}`))
  return parsed.data ?? {}
}

const hostPort = (value: string) => {
  const at = value.lastIndexOf(':')
  return { host: value.slice(0, at), port: Number(value.slice(at + 1)) }
}

/**
 * The storage in effect: environment over config.yaml over proxy.config.ts over fs `.data/`, key by
 * key, so `PROXY_STORAGE_URL` alone moves a project's redis to another server. A relative fs path
 * resolves from where it was set: the working directory, the YAML's folder, proxy.config.ts's folder.
 */
export function resolveStorage(code: StorageOptions | undefined, yaml: StorageSettings | undefined, env: StorageSettings, roots: { code: string; yaml: string; env: string }): StorageOptions {
  const set = { ...yaml, ...env }
  const driver = set.driver ?? (set.url || set.cluster || set.sentinels ? 'redis' : code?.driver ?? 'fs')
  if (driver === 'memory') return { driver }
  if (driver === 'fs') {
    const [base, root] = env.path ? [env.path, roots.env] : yaml?.path ? [yaml.path, roots.yaml] : [code?.driver === 'fs' ? code.base : '.data', roots.code]
    return { driver, base: isAbsolute(base) ? base : resolve(root, base) }
  }
  const fromCode = code?.driver === 'redis' ? code : undefined
  return {
    driver,
    url: set.url ?? fromCode?.url,
    base: set.prefix ?? fromCode?.base,
    ...(set.username && { username: set.username }),
    ...(set.password && { password: set.password }),
    ...(set.cluster?.length && { cluster: set.cluster.map(hostPort) }),
    ...(set.sentinels?.length && { sentinels: set.sentinels.map(hostPort), sentinelName: set['sentinel-name'] ?? 'mymaster' }),
    ...(set['tls-ca-file'] && { tlsCaFile: set['tls-ca-file'] }),
  }
}
