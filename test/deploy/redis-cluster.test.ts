import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { startOwnRedisCluster, type OwnRedisCluster } from '../helpers/redis-cluster.ts'

/**
 * Two proxy processes on a real three-node Redis Cluster, chosen by config.yaml alone (no code): a key's
 * limits hold exactly across both (the limit scripts' keys share a hash tag, so the cluster runs them
 * instead of refusing with CROSSSLOT), and a management write on one instance reaches the other.
 */
const hasRedis = (() => { try { execFileSync('redis-server', ['--version']); return true } catch { return false } })()
const secret = 'cluster-admin'
let cluster: OwnRedisCluster
let upstream: MockUpstream
let root: string
const instances: Array<{ cli: CliProcess; url: string }> = []

beforeAll(async () => {
  if (!hasRedis) return
  cluster = await startOwnRedisCluster(3)
  upstream = await startMockUpstream(async () => {
    await new Promise(resolve => setTimeout(resolve, 200))
    return Response.json({
      id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'mock-gpt',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    })
  })
  root = mkdtempSync(join(tmpdir(), 'proxy-cluster-'))
  for (const name of ['a', 'b']) {
    const file = join(root, `${name}.yaml`)
    writeFileSync(file, [
      'host: 127.0.0.1',
      `remote-management: { secret-key: '${secret}' }`,
      'request-retry: 0',
      `storage: { driver: redis, cluster: [${cluster.nodes.join(', ')}], prefix: cluster-test }`,
      'compat-provider:',
      `  - { name: mock, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: up }], models: [{ name: mock-gpt, alias: m }] }`,
      'client-keys:',
      '  - { key: rpm-key, name: rpm, rpm: 7 }',
      '',
    ].join('\n'))
    instances.push({ cli: runCli(['start', '--config', file, '--port', '0'], root), url: '' })
  }
  for (const instance of instances) instance.url = await instance.cli.url
}, 90_000)

afterAll(async () => {
  await Promise.all(instances.map(instance => instance.cli.kill('SIGKILL')))
  await upstream?.close()
  await cluster?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

const chat = (i: number, key: string) => fetch(`${instances[i % 2]!.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
}).then(async response => ({ status: response.status, text: await response.text() }))

describe.skipIf(!hasRedis)('two instances on a three-node Redis Cluster', () => {
  it('both report the shared store up', async () => {
    for (const instance of instances) {
      const ready = await fetch(`${instance.url}/readyz`).then(r => r.json() as Promise<{ status: string }>)
      expect(ready.status).toBe('ready')
    }
  })

  it('enforce one key\'s rpm exactly, across both', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => chat(i, 'rpm-key')))
    const admitted = answers.filter(answer => answer.status === 200).length
    expect(answers.filter(answer => answer.status !== 200 && answer.status !== 429)).toEqual([])
    expect(admitted).toBe(7)
    // Counted in the cluster, not per instance: neither fell back to local counters.
    for (const instance of instances) expect(instance.cli.output()).not.toMatch(/counting per instance|CROSSSLOT/i)
  })

  it('the limit keys live in one slot of the cluster', async () => {
    const client = new Redis.Cluster(cluster.nodes.map(node => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })))
    try {
      await new Promise(resolve => client.once('ready', resolve))
      const keys: string[] = []
      for (const node of client.nodes('master')) keys.push(...await node.keys('cluster-test:client-keys:*'))
      expect(keys.length).toBeGreaterThan(0)
      const slots = new Set(await Promise.all(keys.map(key => client.cluster('KEYSLOT', key))))
      expect(slots.size).toBe(1)
    } finally {
      client.disconnect()
    }
  })

  it('a management write on one instance reaches the other', async () => {
    const put = await fetch(`${instances[0]!.url}/v0/management/request-retry`, {
      method: 'PUT', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ value: 2 }),
    })
    expect(put.status).toBe(200)
    await expect.poll(() => readFileSync(join(root, 'b.yaml'), 'utf8'), { timeout: 10_000 }).toMatch(/request-retry: 2/)
  })
})
