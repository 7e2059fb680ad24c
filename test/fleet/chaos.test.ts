import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { parse } from 'yaml'
import { startQuotaLimitedUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { freePort, startOwnRedis, type OwnRedis } from '../helpers/redis-server.ts'
import { sharedPart } from '../../core/config/local-keys.ts'

/**
 * Issue 19.5: two real instances, each with its own config file, on one real Redis, under mixed load,
 * while the config is edited on both disks and through both management APIs; one instance is SIGKILLed
 * and restarted, and Redis restarts once. No request is lost but those in flight on the killed
 * instance, no config edit is lost, and both instances end with the same config and credential states.
 */
const secret = 'chaos-admin'
let redis: OwnRedis
let upstream: MockUpstream
let root: string
interface Instance { name: string; dir: string; file: string; port: number; url: string; cli?: CliProcess }
const instances: Instance[] = []

beforeAll(async () => {
  redis = await startOwnRedis()
  // `limited` always answers 429: the instance that meets it first cools it down for both.
  upstream = await startQuotaLimitedUpstream('limited')
  root = mkdtempSync(join(tmpdir(), 'proxy-chaos-'))
  for (const name of ['a', 'b']) {
    const dir = join(root, name)
    mkdirSync(dir)
    const port = await freePort()
    writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: { driver: 'redis', url: '${redis.url}', base: 'chaos' } }\n`)
    writeFileSync(join(dir, 'config.yaml'), [
      '# chaos fleet: shared config',
      'host: 127.0.0.1',
      'api-keys: [client]',
      'usage-statistics-enabled: true',
      'quota-exceeded: { switch-project: true, switch-preview-model: false }',
      `remote-management: { secret-key: '${secret}' }`,
      'compat-provider:',
      `  - { name: pool, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: good-1 }, { api-key: limited }, { api-key: good-2 }], models: [{ name: mock-gpt, alias: m }] }`,
      '',
    ].join('\n'))
    instances.push({ name, dir, file: join(dir, 'config.yaml'), port, url: `http://127.0.0.1:${port}` })
  }
  // One after the other: the first seeds the fleet's version, the second joins it.
  for (const instance of instances) await start(instance)
}, 60_000)
afterAll(async () => {
  await Promise.all(instances.map(i => i.cli?.kill('SIGKILL')))
  await upstream.close()
  await redis.close()
  rmSync(root, { recursive: true, force: true })
})

async function start(instance: Instance) {
  instance.cli = runCli(['start', '--project', join(instance.dir, 'proxy.config.mjs'), '--port', String(instance.port)], instance.dir)
  await instance.cli.url
}

/** One exchange on a fresh connection (as a balancer's health-checked pool would make). */
async function exchange(url: string, method: string, path: string, body: unknown, auth: string) {
  const response = await request(`${url}${path}`, {
    method: method as 'POST', reset: true, headersTimeout: 15_000, bodyTimeout: 15_000,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.statusCode, text: await response.body.text() }
}
const refused = (error: unknown) => ((error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code) === 'ECONNREFUSED'
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

describe('two instances, one Redis, under chaos', () => {
  it('loses no request but those in flight on the killed instance, no config edit, and ends in step', async () => {
    const [a, b] = instances as [Instance, Instance]
    let killedAt: number | undefined
    const t0 = Date.now()
    let stopping = false
    const outcomes = { ok: 0, failed: [] as string[] }
    /** Requests cut without an answer: allowed only for those sent to the killed instance before it was gone. */
    const cut: Array<{ target: Instance; startedAt: number; error: string }> = []

    // Mixed load: chat and streamed chat, alternating instances; a refused connection goes to the other one.
    const worker = async (n: number) => {
      for (let i = 0; !stopping; i++) {
        const stream = (n + i) % 2 === 0
        const order = (n + i) % 3 === 0 ? [b, a] : [a, b]
        for (const target of order) {
          const startedAt = Date.now()
          try {
            const answer = await exchange(target.url, 'POST', '/v1/chat/completions', { model: 'm', stream, messages: [{ role: 'user', content: `load ${n}.${i}` }] }, 'client')
            const whole = stream ? answer.text.includes('data: [DONE]') : answer.text.includes('"choices"')
            if (answer.status === 200 && whole) outcomes.ok++
            else outcomes.failed.push(`${target.name} ${answer.status} ${answer.text.slice(0, 200)}`)
            break
          } catch (error) {
            if (refused(error)) continue
            cut.push({ target, startedAt, error: (error as Error).message })
            break
          }
        }
        await sleep(10)
      }
    }

    // Management editors: one field each, through each instance's API; the last value written is acknowledged before the end.
    const acknowledged = new Map<string, number>()
    const mgmtEditor = async (target: Instance, route: string, key: string, offset: number) => {
      for (let n = 1; ; n++) {
        const value = offset + n
        let done = false
        while (!done) {
          try {
            const answer = await exchange(target.url, 'PUT', `/v0/management${route}`, { value }, secret)
            if (answer.status !== 200) throw new Error(`${route} ${answer.status} ${answer.text}`)
            acknowledged.set(key, value)
            done = true
          } catch (error) {
            // Down (killed) or cut: try the same value again once it is back.
            if (!refused(error) && !/other side closed|socket|ECONNRESET/i.test((error as Error).message)) throw error
            await sleep(100)
          }
        }
        if (stopping) return
        await sleep(120)
      }
    }
    // Disk editors: one key each, in each instance's own file (running or not), as an operator's tool would.
    const written = new Map<string, number>()
    const diskEditor = async (target: Instance, key: string) => {
      for (let n = 1; !stopping; n++) {
        const text = readFileSync(target.file, 'utf8')
        const next = new RegExp(`^${key}: \\d+$`, 'm').test(text) ? text.replace(new RegExp(`^${key}: \\d+$`, 'm'), `${key}: ${n}`) : `${text}${key}: ${n}\n`
        writeFileSync(`${target.file}.edit`, next)
        renameSync(`${target.file}.edit`, target.file)
        written.set(key, n)
        await sleep(400)
      }
    }

    const started = performance.now()
    const running = [
      ...[0, 1, 2].map(worker),
      mgmtEditor(a, '/error-logs-max-files', 'error-logs-max-files', 100),
      mgmtEditor(b, '/logs-max-total-size-mb', 'logs-max-total-size-mb', 200),
      diskEditor(a, 'usage-retention-days'),
      diskEditor(b, 'max-request-body-mb'),
    ]
    const phases: string[] = []
    const phase = (name: string) => phases.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)}s`)
    // An operator blocks a credential through one instance.
    await sleep(1000)
    expect((await exchange(b.url, 'POST', '/v0/management/credentials/block', { id: 'compat:pool:0.2', reason: 'chaos' }, secret)).status).toBe(200)
    await sleep(1500)
    a.cli!.child.kill('SIGKILL')
    await a.cli!.exit
    // Until the process is gone, a request may still reach it (and be cut): it was in flight there.
    killedAt = Date.now()
    phase('killed')
    await sleep(1500)
    await start(a)
    phase('restarted')
    await sleep(1500)
    await redis.stop({ save: true })
    phase('redis stopped')
    await sleep(1500)
    await redis.start()
    phase('redis started')
    await sleep(2000)
    stopping = true
    await Promise.all(running)
    phase('stopped')
    const loadSeconds = (performance.now() - started) / 1000

    const inFlightOnKilled = cut.filter(c => c.target === a && c.startedAt <= killedAt!)
    expect(outcomes.failed).toEqual([])
    expect(cut.filter(c => !inFlightOnKilled.includes(c)).map(c => `${c.target.name} ${c.startedAt - t0} ms: ${c.error}`)).toEqual([])
    expect(outcomes.ok).toBeGreaterThan(50)

    // In step: the same shared config on both (running and in the file), every editor's last value in it, the same credential states.
    const expected = {
      'error-logs-max-files': acknowledged.get('error-logs-max-files'),
      'logs-max-total-size-mb': acknowledged.get('logs-max-total-size-mb'),
      'usage-retention-days': written.get('usage-retention-days'),
      'max-request-body-mb': written.get('max-request-body-mb'),
    }
    const runningConfig = async (instance: Instance) => JSON.parse((await exchange(instance.url, 'GET', '/v0/management/config', undefined, secret)).text) as Record<string, unknown>
    const states = async (instance: Instance) => (JSON.parse((await exchange(instance.url, 'GET', '/v0/management/credentials', undefined, secret)).text) as { credentials: Array<{ id: string; state: string }> }).credentials.map(c => `${c.id}=${c.state}`).sort()
    const converged = performance.now()
    for (const instance of instances) {
      try {
        await expect.poll(() => runningConfig(instance), { timeout: 10_000, interval: 200 }).toMatchObject(expected)
      } catch (error) {
        // What each instance said about the config, to tell which change went missing where.
        for (const i of instances) console.log(`${i.name}:\n${i.cli!.output().split('\n').filter(line => /config|fleet|sync/.test(line)).slice(-40).join('\n')}`)
        throw error
      }
      await expect.poll(() => parse(readFileSync(instance.file, 'utf8')), { timeout: 10_000, interval: 200 }).toMatchObject(expected)
    }
    await expect.poll(async () => JSON.stringify(await states(a)), { timeout: 5000, interval: 200 }).toBe(JSON.stringify(await states(b)))
    expect(await states(a)).toEqual(['compat:pool:0.0=ready', 'compat:pool:0.1=cooldown', 'compat:pool:0.2=blocked'])
    expect(sharedPart(readFileSync(a.file, 'utf8'))).toBe(sharedPart(readFileSync(b.file, 'utf8')))
    expect(readFileSync(a.file, 'utf8')).toContain('# chaos fleet: shared config')
    console.log(`chaos: ${outcomes.ok} requests answered, ${inFlightOnKilled.length} cut in flight on the killed instance, 0 lost; ${acknowledged.get('error-logs-max-files')! - 100 + acknowledged.get('logs-max-total-size-mb')! - 200} management writes, ${written.get('usage-retention-days')! + written.get('max-request-body-mb')!} disk edits; ${loadSeconds.toFixed(1)} s of chaos, in step ${((performance.now() - converged) / 1000).toFixed(1)} s after (${phases.join(', ')})`)
  }, 120_000)
})
