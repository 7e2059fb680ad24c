import { describe, expect, it } from 'vitest'
import { resolveStorage, storageSettingsFromEnv } from './storage-settings.ts'
import { ConfigError } from './validate.ts'

const roots = { code: '/project', yaml: '/etc/proxy', env: '/work' }
const noFile = () => { throw Object.assign(new Error('nope'), { code: 'ENOENT' }) }

describe('storage: environment over YAML over proxy.config.ts over the default', () => {
  it.each([
    ['nothing: fs under .data next to proxy.config.ts', undefined, undefined, {}, { driver: 'fs', base: '/project/.data' }],
    ['code only', { driver: 'fs', base: './state' }, undefined, {}, { driver: 'fs', base: '/project/state' }],
    ['YAML path resolves from the YAML', { driver: 'fs', base: './state' }, { path: 'data' }, {}, { driver: 'fs', base: '/etc/proxy/data' }],
    ['environment path resolves from the working directory', undefined, { path: 'data' }, { path: 'env-data' }, { driver: 'fs', base: '/work/env-data' }],
    ['a URL implies redis', { driver: 'fs', base: '.data' }, undefined, { url: 'redis://r:6379' }, { driver: 'redis', url: 'redis://r:6379' }],
    ['env URL over YAML URL, YAML prefix kept', undefined, { driver: 'redis', url: 'redis://a:1', prefix: 'p' }, { url: 'rediss://b:2' }, { driver: 'redis', url: 'rediss://b:2', base: 'p' }],
    ['code redis, YAML prefix', { driver: 'redis', url: 'redis://c:3', base: 'code' }, { prefix: 'yaml' }, {}, { driver: 'redis', url: 'redis://c:3', base: 'yaml' }],
    ['env driver memory wins', { driver: 'redis', url: 'redis://c:3' }, { driver: 'redis' }, { driver: 'memory' }, { driver: 'memory' }],
    ['cluster', undefined, { cluster: ['a:1', 'b:2'], password: 'pw' }, {}, { driver: 'redis', cluster: [{ host: 'a', port: 1 }, { host: 'b', port: 2 }], password: 'pw' }],
    ['sentinels, default name', undefined, { sentinels: ['s:26379'], username: 'u' }, {}, { driver: 'redis', sentinels: [{ host: 's', port: 26379 }], sentinelName: 'mymaster', username: 'u' }],
  ] as const)('%s', (_, code, yaml, env, expected) => {
    expect(resolveStorage(code as never, yaml as never, env as never, roots)).toEqual(expected)
  })

  it('reads PROXY_STORAGE_* (lists comma-separated) and the password from a file', () => {
    expect(storageSettingsFromEnv({ PROXY_STORAGE_URL: 'redis://x:1', PROXY_STORAGE_CLUSTER: 'a:1, b:2', PROXY_STORAGE_PASSWORD_FILE: '/run/secrets/p' }, () => 'secret\n'))
      .toEqual({ url: 'redis://x:1', cluster: ['a:1', 'b:2'], password: 'secret' })
    expect(storageSettingsFromEnv({}, noFile)).toEqual({})
  })

  it('a bad value or an unreadable password file is a config error naming the variable', () => {
    expect(() => storageSettingsFromEnv({ PROXY_STORAGE_DRIVER: 'mysql' }, noFile)).toThrow(ConfigError)
    expect(() => storageSettingsFromEnv({ PROXY_STORAGE_DRIVER: 'mysql' }, noFile)).toThrow(/PROXY_STORAGE_DRIVER: must be fs, redis or memory/)
    expect(() => storageSettingsFromEnv({ PROXY_STORAGE_CLUSTER: 'nohost' }, noFile)).toThrow(/PROXY_STORAGE_CLUSTER: must be host:port/)
    expect(() => storageSettingsFromEnv({ PROXY_STORAGE_PASSWORD_FILE: '/missing' }, noFile)).toThrow(/PROXY_STORAGE_PASSWORD_FILE: cannot read \/missing \(ENOENT\)/)
  })
})
