import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

/**
 * Issue 19.1: the YAML file is reloaded however it is changed, for as long as the process runs: after
 * the start-up rewrite (a plain secret-key hashed), rename-replace, in-place edits, appends,
 * delete-and-recreate, a Kubernetes-style symlinked file, and a burst of writes.
 */
const dirs: string[] = []
const procs: CliProcess[] = []
afterAll(async () => {
  await Promise.all(procs.map(p => p.kill('SIGKILL')))
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const yaml = (retry: number, extra = '') => `# kept comment
host: 127.0.0.1
api-keys: [k]
remote-management:
  secret-key: plain-admin-secret
request-retry: ${retry}
${extra}`

async function start(configPath: string, dir: string) {
  const cli = runCli(['start', '--config', configPath, '--port', '0', '--project', join(dir, 'none.mjs')], dir)
  procs.push(cli)
  const url = await cli.url
  const retry = async () => (await (await fetch(`${url}/v0/management/request-retry`, { headers: { authorization: 'Bearer plain-admin-secret' } })).json() as { 'request-retry': number })['request-retry']
  const applied = () => cli.output().split('\n').filter(line => line.includes('config changed by')).length
  return { cli, url, retry, applied }
}

const until = (read: () => Promise<unknown>, value: unknown) => expect.poll(read, { timeout: 5000, interval: 50 }).toBe(value)

describe('live reload that cannot go deaf', () => {
  it('applies every kind of edit after the start-up rewrite, each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-reload-'))
    dirs.push(dir)
    const path = join(dir, 'config.yaml')
    writeFileSync(path, yaml(1))
    const proxy = await start(path, dir)
    // The documented setup: the plain secret was hashed and the file rewritten by rename at start.
    await expect.poll(() => readFileSync(path, 'utf8')).toContain('$2')
    expect(await proxy.retry()).toBe(1)

    const text = () => readFileSync(path, 'utf8')
    // Rename-replace (management writes, sed -i, most editors).
    writeFileSync(join(dir, 'next.yaml'), text().replace('request-retry: 1', 'request-retry: 2'))
    renameSync(join(dir, 'next.yaml'), path)
    await until(proxy.retry, 2)
    // In place, same inode.
    writeFileSync(path, text().replace('request-retry: 2', 'request-retry: 3'))
    await until(proxy.retry, 3)
    // Append.
    appendFileSync(path, 'max-retry-interval: 7\n')
    await until(async () => (await (await fetch(`${proxy.url}/v0/management/max-retry-interval`, { headers: { authorization: 'Bearer plain-admin-secret' } })).json() as Record<string, number>)['max-retry-interval'], 7)
    // Delete, then recreate a moment later.
    const kept = text()
    unlinkSync(path)
    await new Promise(resolve => setTimeout(resolve, 300))
    writeFileSync(path, kept.replace('request-retry: 3', 'request-retry: 4'))
    await until(proxy.retry, 4)

    // A management write is applied once: the watcher seeing our own write does not apply it again.
    const before = proxy.applied()
    expect((await fetch(`${proxy.url}/v0/management/request-retry`, { method: 'PUT', headers: { authorization: 'Bearer plain-admin-secret', 'content-type': 'application/json' }, body: JSON.stringify({ value: 5 }) })).status).toBe(200)
    await new Promise(resolve => setTimeout(resolve, 2500))
    expect(proxy.applied() - before).toBe(1)
    expect(await proxy.retry()).toBe(5)

    // 100 rapid writes, alternating rename-replace and in place: the last one wins, none is applied twice.
    const burstStart = proxy.applied()
    const base = text()
    for (let i = 0; i < 100; i++) {
      const next = base.replace('request-retry: 5', `request-retry: ${100 + i}`)
      if (i % 2) writeFileSync(path, next)
      else {
        writeFileSync(join(dir, 'burst.yaml'), next)
        renameSync(join(dir, 'burst.yaml'), path)
      }
    }
    await until(proxy.retry, 199)
    const afterBurst = proxy.applied() - burstStart
    expect(afterBurst).toBeGreaterThanOrEqual(1)
    expect(afterBurst).toBeLessThanOrEqual(100)
    // Settled: the poll and late events find the same content and apply nothing more.
    await new Promise(resolve => setTimeout(resolve, 2500))
    expect(proxy.applied() - burstStart).toBe(afterBurst)
    expect(text()).toContain('# kept comment')
  }, 40_000)

  it('follows a symlinked config whose link is swapped (Kubernetes ConfigMap)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-reload-cm-'))
    dirs.push(dir)
    // ConfigMap layout: config.yaml -> ..data/config.yaml, ..data -> ..<timestamp>/ (swapped atomically).
    const version = (name: string, retry: number) => {
      mkdirSync(join(dir, name))
      writeFileSync(join(dir, name, 'config.yaml'), yaml(retry).replace('  secret-key: plain-admin-secret', `  secret-key: '${'$2b$04$'}${'a'.repeat(53)}'`))
    }
    version('..v1', 1)
    symlinkSync('..v1', join(dir, '..data'))
    symlinkSync('..data/config.yaml', join(dir, 'config.yaml'))
    const cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, { MANAGEMENT_PASSWORD: 'env-admin' })
    procs.push(cli)
    const url = await cli.url
    const retry = async () => (await (await fetch(`${url}/v0/management/request-retry`, { headers: { authorization: 'Bearer env-admin' } })).json() as { 'request-retry': number })['request-retry']
    expect(await retry()).toBe(1)
    for (const [name, value] of [['..v2', 2], ['..v3', 3]] as const) {
      version(name, value)
      symlinkSync(name, join(dir, '..data_tmp'))
      renameSync(join(dir, '..data_tmp'), join(dir, '..data'))
      await until(retry, value)
    }
  }, 30_000)
})
