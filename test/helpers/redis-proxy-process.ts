import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli, type CliProcess } from './spawn-cli.ts'
import { startOwnRedis, type OwnRedis } from './redis-server.ts'

export interface RedisProxyProcess {
  /** The test's own redis-server: stop, start, pause and resume it at will. */
  redis: OwnRedis
  cli: CliProcess
  url: string
  /** Start another process on the same project (say, while Redis is paused). */
  spawn(): CliProcess
  close(): Promise<void>
}

/**
 * `proxy start` as a user runs it, in a temp folder of its own, on loopback, with its storage on a
 * redis-server of the test's own (under `base`) so the test can fail Redis without touching the shared
 * one. `config`: the YAML's lines after `host`.
 */
export async function startRedisProxyProcess(base: string, config: string[]): Promise<RedisProxyProcess> {
  const redis = await startOwnRedis()
  const dir = mkdtempSync(join(tmpdir(), `proxy-${base}-`))
  writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: { driver: 'redis', url: '${redis.url}', base: '${base}' } }\n`)
  writeFileSync(join(dir, 'config.yaml'), ['host: 127.0.0.1', ...config, ''].join('\n'))
  const spawn = () => runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir)
  const cli = spawn()
  const close = async () => {
    await cli.kill('SIGKILL')
    await redis.close()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    return { redis, cli, url: await cli.url, spawn, close }
  } catch (error) {
    await close()
    throw error
  }
}

export interface RedisFleet {
  redis: OwnRedis
  /** `dir`: the instance's own folder; `file`: its config file there. */
  instances: Array<{ cli: CliProcess; url: string; dir: string; file: string }>
  close(): Promise<void>
}

/**
 * `count` proxy processes on one redis-server of the test's own (under `base`), each in a folder of its
 * own (its own config file, as instances on several machines): `config` is the YAML's lines after `host`
 * (a function: per instance, given its folder). `oneByOne`: each starts once the one before answers
 * (the first then hashes plain secrets and seeds the fleet's config version alone).
 */
export async function startRedisFleet(base: string, count: number, config: string[] | ((dir: string) => string[]), options: { oneByOne?: boolean } = {}): Promise<RedisFleet> {
  const redis = await startOwnRedis()
  const root = mkdtempSync(join(tmpdir(), `proxy-${base}-`))
  const instances: RedisFleet['instances'] = []
  const close = async () => {
    await Promise.all(instances.map(instance => instance.cli.kill('SIGKILL')))
    await redis.close()
    rmSync(root, { recursive: true, force: true })
  }
  try {
    for (let i = 0; i < count; i++) {
      const dir = join(root, String(i))
      const file = join(dir, 'config.yaml')
      mkdirSync(dir)
      writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: { driver: 'redis', url: '${redis.url}', base: '${base}' } }\n`)
      writeFileSync(file, ['host: 127.0.0.1', ...(typeof config === 'function' ? config(dir) : config), ''].join('\n'))
      const instance = { cli: runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir), url: '', dir, file }
      instances.push(instance)
      if (options.oneByOne) instance.url = await instance.cli.url
    }
    for (const instance of instances) instance.url ||= await instance.cli.url
    return { redis, instances, close }
  } catch (error) {
    await close()
    throw error
  }
}
