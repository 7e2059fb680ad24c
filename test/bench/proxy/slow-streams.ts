// Many concurrent streamed 76 KB requests (a Claude Code session's first request) through a slowly
// dripping upstream: RSS and time to first byte of the floor, of this proxy same-format and of this proxy
// translated, each side a fresh process per run so its RSS is its own.
//   npm run bench -- "slow streams"
//   BENCH_STREAMS: how many open at once (1000); BENCH_OPEN_RATE: streams opened a second (100: the
//   1,000 open over 10 s; 0: all in the same moment, the burst); BENCH_DRIP_MS: between events (100: 200
//   events last 20 s, so every stream is still open when the last one starts, at either rate);
//   BENCH_RUNS: fresh processes per side (3); BENCH_SIDES: which sides, by name or index (0 floor, 1 same
//   format, 2 translated; all by default); BENCH_PROXY_ROOT: another checkout's proxy instead of this
//   tree's (a before/after on the same load).
// Why a steady rate by default: "1,000 concurrent streams" is 1,000 open at once, not 1,000 arriving in
// the same millisecond. In the burst, one client process writes 76 MB to 1,000 sockets while the proxy
// parses and translates 1,000 bodies (~1.2 ms CPU each) on two shared cores: every request's time to
// first byte is mostly its place in that queue (the floor's own median moved 1.1-1.9 s between runs), so
// it says little about what the proxy adds. At 100 a second each request arrives at an open-stream count
// rising to 1,000 and its time to first byte is the proxy's latency under that many open streams. The
// burst (BENCH_OPEN_RATE=0) stays for the worst case of everything arriving together.
// One run's peak RSS swings by tens of percent with how many streams overlap and when the collector
// runs, so the figure compared is RSS with every stream open, after a forced full collection
// (memory-on-signal.mjs, every side alike), median over runs; the peak is printed beside it, and where
// the memory is (V8 heap, Buffers) at idle, at the peak and with all open.
// Time to first byte is counted from when the client finished sending its body (the write's callback),
// not from the start of the run: one process writing 76 MB to 1,000 sockets otherwise times itself.
// p50 and p99 pool every stream of a run; the row is the median over runs, and "added" is the median of
// each run's difference from the floor's run just before it.
import { Agent, request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { request as undiciRequest } from 'undici'
import { agentBody, agentHeaders } from './agent-body.ts'
import { median, varyMark } from './load.ts'
import { benchKey, cpuMicros, rssMb, startMock, startPassthrough, startProxy, type Running } from './processes.ts'

type Row = Record<string, string | number>
const fmt = (n: number, digits = 0) => Number(n.toFixed(digits))
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
// BENCH_NODE_ARGS: more flags for every measured process, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to see where the burst's CPU goes.
const gcArgs = ['--expose-gc', '--import', fileURLToPath(new URL('./memory-on-signal.mjs', import.meta.url)), ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])]

interface Memory { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number }
interface Burst { cpu: number; peak: number; open: number; openStreams: number; firsts: number[]; fromStart: number[]; errors: number; seconds: number; memory: { now: Memory; peak: Memory } }

/** A full collection in `running`, then its memory now and its high-water since the last call (memory-on-signal.mjs). */
async function memoryOf(running: Running): Promise<{ now: Memory; peak: Memory }> {
  return new Promise(resolve => {
    let text = ''
    const onData = (chunk: Buffer) => {
      text += chunk
      const match = /memory (\{.*\})\n/.exec(text)
      if (!match) return
      running.child.stdout!.off('data', onData)
      resolve(JSON.parse(match[1]!))
    }
    running.child.stdout!.on('data', onData)
    running.child.kill('SIGUSR2')
  })
}

/** One streamed POST: resolves on the first body byte with the times from the start and from the body's last write, then reads to the end. */
function post(url: URL, agent: Agent, body: string, onFirst: (fromStart: number, fromSent: number) => void): Promise<boolean> {
  return new Promise(resolve => {
    const started = performance.now()
    let sent = Number.NaN
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${benchKey}`, ...agentHeaders() } }, response => {
      let first = true
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        if (first) { const at = performance.now(); onFirst(at - started, at - sent); first = false }
        text += chunk
      })
      response.on('end', () => resolve(response.statusCode === 200 && text.includes('message_stop')))
      response.on('error', () => resolve(false))
    })
    req.on('error', () => resolve(false))
    req.end(body, () => { sent = performance.now() })
  })
}

/** The mock's count of streams it is still dripping. */
async function mockOpen(mockUrl: string): Promise<number> {
  const response = await undiciRequest(`${mockUrl}/stats`)
  return (await response.body.json() as { open: number }).open
}

/** Opens `count` streams on a schedule of `rate` per second (`one(i)` each); resolves when every one has ended. */
async function opening(count: number, rate: number, one: (i: number) => Promise<void>): Promise<void> {
  const started = performance.now()
  const pending: Array<Promise<void>> = []
  while (pending.length < count) {
    const due = Math.min(count, Math.floor((performance.now() - started) * rate / 1000) + 1)
    while (pending.length < due) pending.push(one(pending.length))
    if (pending.length < count) await sleep(10)
  }
  await Promise.all(pending)
}

/**
 * One burst of `count` streams, opened at once (`rate` 0) or `rate` a second: every stream's time to its
 * first body byte, peak RSS of `pid`, and its RSS once every stream has its first byte, after a full
 * collection (`open`).
 */
async function burst(url: string, mockUrl: string, running: Running, model: string, count: number, rate = 0): Promise<Burst> {
  const [head, tail] = JSON.stringify({ ...agentBody(76, 'bench-claude'), model, messages: [...agentBody(76, 'bench-claude').messages as unknown[], { role: 'user', content: `turn ${varyMark}` }] }).split(varyMark) as [string, string]
  const agent = new Agent({ keepAlive: true, maxSockets: count })
  let peak = rssMb(running.pid)
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(running.pid)) }, 50)
  const firsts: number[] = []
  const fromStart: number[] = []
  let errors = 0
  let ended = 0
  const started = performance.now()
  const cpuBefore = cpuMicros(running.pid)
  const target = new URL(`${url}/v1/messages`)
  const one = async (i: number) => {
    const ok = await post(target, agent, `${head}${i}${tail}`, (start, sent) => { fromStart.push(start); firsts.push(sent) })
    if (!ok) errors++
    ended++
  }
  // rate 0: all at once. Otherwise stream i opens at i / rate seconds from the start (a timer every 10 ms
  // opens those due: timers drift, the schedule does not).
  const all = rate ? opening(count, rate, one) : Promise.all(Array.from({ length: count }, (_, i) => one(i)))
  // Every stream has its first byte (or failed): all are open now, if the drip is slow enough.
  while (firsts.length + errors < count) await sleep(20)
  // The process's CPU from the first request to the last first byte: in the burst, what each stream's place in the queue waits on.
  const cpu = (cpuMicros(running.pid) - cpuBefore) / 1e6
  const openStreams = await mockOpen(mockUrl)
  const memory = await memoryOf(running)
  const open = rssMb(running.pid)
  if (ended) console.error(`  ${ended} streams had ended before the sample: raise BENCH_DRIP_MS`)
  await all
  clearInterval(sampler)
  agent.destroy()
  return { cpu, peak, open, openStreams, firsts, fromStart, errors, seconds: (performance.now() - started) / 1000, memory }
}

/** BENCH_OPEN_RATE: streams opened a second (100 by default); 0 opens them all at once (the burst). */
export const openRate = () => Number(process.env.BENCH_OPEN_RATE ?? 100)

const sides = [['floor', 'bench-claude'], ['same format (messages -> beta)', 'bench-claude'], ['translated (messages -> compat)', 'bench']] as const
type Side = typeof sides[number][0]

type Run = Burst & { idle: number; idleMemory: Memory; ttfb: number }
const mb = (bytes: number) => fmt(bytes / 1048576)
const spread = (values: number[]) => `${fmt(Math.min(...values))}-${fmt(Math.max(...values))}`

/** Floor, same format and translated, interleaved run by run, each through a fresh process: the figures, then where the memory is. */
export async function slowStreamRows(count = Number(process.env.BENCH_STREAMS ?? 1000), dripMs = Number(process.env.BENCH_DRIP_MS ?? 100), runs = Number(process.env.BENCH_RUNS ?? 3), rate = openRate()): Promise<[Row[], Row[]]> {
  const mock = await startMock(dripMs)
  const only = process.env.BENCH_SIDES?.split(',')
  const chosen = sides.filter(([side], i) => !only || only.includes(String(i)) || only.includes(side))
  const results = new Map<Side, Run[]>(chosen.map(([side]) => [side, []]))
  try {
    for (let run = 0; run < runs; run++) {
      for (const [side, model] of chosen) {
        const running = side === 'floor' ? await startPassthrough(mock.url, gcArgs) : await startProxy(mock.url, gcArgs, process.env.BENCH_PROXY_ROOT)
        // BENCH_SPACES=1: each V8 space's [committed, used] MB at every sample (memory-on-signal.mjs), which space holds the slack.
        if (process.env.BENCH_SPACES) running.child.stderr!.on('data', (chunk: Buffer) => { for (const line of String(chunk).split('\n')) if (line.startsWith('spaces ')) console.error(`  ${side}: ${line}`) })
        try {
          // Warmed (JIT, pools) by a few streams, then collected: the idle figure is what the burst adds to.
          await burst(running.url, mock.url, running, model, 10)
          const idleMemory = (await memoryOf(running)).now
          const idle = rssMb(running.pid)
          const result = await burst(running.url, mock.url, running, model, count, rate)
          results.get(side)!.push({ ...result, idle, idleMemory, ttfb: median(result.firsts) })
          console.error(`  run ${run + 1} ${side}: open ${fmt(result.open)} MB, peak ${fmt(result.peak)} MB, TTFB p50 ${fmt(median(result.firsts))} p99 ${fmt(quantile(result.firsts, 0.99))} ms from the body sent (${fmt(median(result.fromStart))} from the start), CPU ${fmt(result.cpu, 2)} s to the last first byte, ${result.openStreams} open at the sample`)
        } finally {
          await running.stop()
        }
      }
    }
  } finally {
    await mock.stop()
  }
  const floor = results.get('floor')
  const of = (side: Side, pick: (b: Run) => number) => median(results.get(side)!.map(pick))
  const floorOf = (pick: (b: Run) => number) => floor ? median(floor.map(pick)) : Number.NaN
  const rows = chosen.map(([side]): Row => {
    const bursts = results.get(side)!
    const opens = bursts.map(b => b.open)
    const ttfbs = bursts.map(b => b.ttfb)
    // Added TTFB run by run (against the floor's run just before), then the median: runs drift together.
    const added = floor ? median(bursts.map((b, i) => b.ttfb - floor[i]!.ttfb)) : Number.NaN
    const addedP99 = floor ? median(bursts.map((b, i) => quantile(b.firsts, 0.99) - quantile(floor[i]!.firsts, 0.99))) : Number.NaN
    return {
      side, runs: bursts.length, 'idle RSS MB': fmt(of(side, b => b.idle)),
      'RSS all open MB': fmt(median(opens)), 'spread MB': spread(opens), 'open / floor': side === 'floor' ? '' : fmt(median(opens) / floorOf(b => b.open), 2),
      'peak RSS MB': fmt(of(side, b => b.peak)), 'peak / floor': side === 'floor' ? '' : fmt(of(side, b => b.peak) / floorOf(b => b.peak), 2),
      'TTFB p50 ms': fmt(median(ttfbs)), 'TTFB spread ms': spread(ttfbs), 'added TTFB p50 ms': side === 'floor' ? '' : fmt(added),
      'TTFB p99 ms': fmt(of(side, b => quantile(b.firsts, 0.99))), 'added TTFB p99 ms': side === 'floor' ? '' : fmt(addedP99),
      'TTFB p50 from start ms': fmt(of(side, b => median(b.fromStart))),
      'CPU s to last first byte': fmt(of(side, b => b.cpu), 2),
      'open at sample': Math.min(...bursts.map(b => b.openStreams)), errors: bursts.reduce((sum, b) => sum + b.errors, 0),
    }
  })
  // Medians of process.memoryUsage() (MB): V8's heap (reserved / used), Buffers' memory outside it (arrayBuffers, within external).
  const memory = chosen.flatMap(([side]) => (['idle', 'peak', 'open'] as const).map((at): Row => {
    const pick = (b: Run): Memory => at === 'idle' ? b.idleMemory : at === 'peak' ? b.memory.peak : b.memory.now
    const field = (name: keyof Memory) => mb(of(side, b => pick(b)[name]))
    return { side, at, rss: field('rss'), heapTotal: field('heapTotal'), heapUsed: field('heapUsed'), external: field('external'), arrayBuffers: field('arrayBuffers') }
  }))
  return [rows, memory]
}
