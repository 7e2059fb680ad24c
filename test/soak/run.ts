/**
 * Soak run (not a test): mixed traffic of every client format, stream and not, translated and same
 * format, against a spawned proxy whose mock upstreams inject faults at a few percent. Prints the proxy's
 * RSS and open file descriptors at start and end; exits 1 when RSS grew by 10% or more or fds grew.
 *
 *   node --import jiti/register test/soak/run.ts [--minutes N]     (or SOAK_MINUTES=N; default 10)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent } from 'undici'
import { familyEntries, mergeEntries, startFaultUpstream, type Fault, type UpstreamFamily } from '../helpers/fault-upstream.ts'
import { clientCall, clientHeaders, streamCompleted, streamErrorEnding, type ClientFormat } from '../helpers/client-formats.ts'
import { runCli } from '../helpers/spawn-cli.ts'

const flag = process.argv.indexOf('--minutes')
const minutes = Number(flag !== -1 ? process.argv[flag + 1] : process.env.SOAK_MINUTES ?? 10)
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 16)
/** Seconds of idle before each measurement: past undici's 30 s keep-alive, so pooled sockets are gone. */
const settleSeconds = Number(process.env.SOAK_SETTLE_SECONDS ?? 35)

/** A few percent of upstream requests misbehave, one way or another. */
const faultRates: Array<[Fault, number]> = [['status-429', 0.01], ['status-500', 0.01], ['reset-pre', 0.01], ['reset-post', 0.01], ['truncated-post', 0.01], ['hang-pre', 0.005], ['hang-post', 0.005], ['nonjson-pre', 0.005]]
function chooseFault(): Fault {
  let roll = Math.random()
  for (const [fault, rate] of faultRates) {
    if (roll < rate) return fault
    roll -= rate
  }
  return 'ok'
}

const families: UpstreamFamily[] = ['compat', 'beta', 'gamma', 'alpha']
const formats: ClientFormat[] = ['chat', 'completions', 'messages', 'responses', 'generate-sse', 'generate-array']

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])
const fdCount = (pid: number) => readdirSync(`/proc/${pid}/fd`).length
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

async function main(): Promise<number> {
  const upstreams = await Promise.all(families.map(family => startFaultUpstream(family, { choose: chooseFault })))
  const dir = mkdtempSync(join(tmpdir(), 'proxy-soak-'))
  const entries = mergeEntries(families.map((family, i) => familyEntries(family, upstreams[i]!.baseUrl, ['key-a', 'key-b'], family)))
  writeFileSync(join(dir, 'config.yaml'), JSON.stringify({
    host: '127.0.0.1', 'api-keys': ['k'], 'auth-dir': join(dir, 'auths'),
    'max-retry-interval': 2, streaming: { 'bootstrap-retries': 1 },
    timeouts: { 'first-byte-seconds': 3, 'stream-idle-seconds': 3 },
    ...entries,
  }))
  const cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir)
  const url = await cli.url
  const pid = cli.child.pid!

  const counts = new Map<string, number>()
  const count = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1)
  let requests = 0

  async function one(agent: Agent): Promise<void> {
    const format = formats[Math.floor(Math.random() * formats.length)]!
    const family = families[Math.floor(Math.random() * families.length)]!
    const stream = format === 'generate-array' || Math.random() < 0.5
    const { path, body } = clientCall(format, family, stream, 'soak')
    requests++
    try {
      const response = await fetch(`${url}${path}`, { method: 'POST', headers: clientHeaders('k'), body: JSON.stringify(body), signal: AbortSignal.timeout(30_000), dispatcher: agent } as RequestInit)
      const text = await response.text()
      if (response.status !== 200) return void count(`status ${response.status}`)
      if (!stream) return void count(text.includes('soak') ? 'ok' : 'bad body')
      if (streamCompleted(format, text) === undefined) return void count('ok')
      count(streamErrorEnding(format, text) === undefined ? 'error event mid-stream' : 'broken stream')
    } catch (error) {
      count((error as Error).name === 'TimeoutError' ? 'client timeout (30 s)' : `network: ${(error as Error).message}`)
    }
  }

  async function traffic(ms: number): Promise<void> {
    const agent = new Agent({ connections: concurrency })
    const until = Date.now() + ms
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) await one(agent)
    }))
    // Our own keep-alive sockets to the proxy go, so the proxy's fd count shows only its own.
    await agent.close()
  }

  const total = minutes * 60_000
  // Long enough for the heap to reach its working size, or the first minutes read as growth.
  const warmup = Math.min(20_000, total / 4)
  console.log(`soak: ${minutes} min, concurrency ${concurrency}, proxy pid ${pid} at ${url}`)
  await traffic(warmup)
  await sleep(settleSeconds * 1000)
  const start = { rss: rssKb(pid), fds: fdCount(pid) }
  console.log(`start (after ${Math.round(warmup / 1000)} s warm-up, ${settleSeconds} s idle): RSS ${(start.rss / 1024).toFixed(1)} MB, fds ${start.fds}`)
  counts.clear()
  requests = 0
  const began = Date.now()
  // RSS under load every 30 s: a leak climbs steadily, a heap growing to its working size levels off.
  const samples: string[] = []
  const sampler = setInterval(() => samples.push((rssKb(pid) / 1024).toFixed(0)), 30_000)
  await traffic(total - warmup)
  clearInterval(sampler)
  const seconds = (Date.now() - began) / 1000
  console.log(`RSS under load every 30 s (MB): ${samples.join(', ')}`)
  await sleep(settleSeconds * 1000)
  const end = { rss: rssKb(pid), fds: fdCount(pid) }

  const growth = (end.rss - start.rss) / start.rss * 100
  console.log(`end (${settleSeconds} s idle):   RSS ${(end.rss / 1024).toFixed(1)} MB, fds ${end.fds}`)
  console.log(`RSS growth ${growth.toFixed(1)}%, fd growth ${end.fds - start.fds}`)
  console.log(`requests ${requests} in ${seconds.toFixed(0)} s (${(requests / seconds).toFixed(0)}/s)`)
  console.log(`upstream requests ${upstreams.reduce((sum, upstream) => sum + upstream.requests.length, 0)}, faults injected ${upstreams.reduce((sum, upstream) => sum + upstream.requests.filter(r => r.fault !== 'ok').length, 0)}`)
  for (const [kind, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${kind.padEnd(28)} ${n}`)

  await cli.kill('SIGTERM')
  await Promise.all(upstreams.map(upstream => upstream.close()))
  rmSync(dir, { recursive: true, force: true })
  const failed = growth >= 10 || end.fds > start.fds
  console.log(failed ? 'FAIL: RSS grew 10% or more, or file descriptors grew' : 'PASS')
  return failed ? 1 : 0
}

main().then(code => process.exit(code), (error) => {
  console.error(error)
  process.exit(2)
})
