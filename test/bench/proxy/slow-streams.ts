// Many concurrent streamed 76 KB requests (a Claude Code session's first request) through a slowly
// dripping upstream: RSS and time to first byte of the floor, of this proxy same-format and of this proxy
// translated, each side a fresh process per run so its RSS is its own.
//   npm run bench -- "slow streams"
//   BENCH_STREAMS: how many at once (1000); BENCH_DRIP_MS: between events (100: 200 events last 20 s, so
//   every stream is still open when the last one starts); BENCH_RUNS: fresh processes per side (3).
// One burst's peak RSS swings by tens of percent with how many streams overlap and when the collector
// runs, so the figure compared is RSS with every stream open, after a forced full collection
// (gc-on-signal.mjs, every side alike), median over runs; the burst's peak is printed beside it.
import { fileURLToPath } from 'node:url'
import { request, Agent } from 'undici'
import { agentBody, agentHeaders } from './agent-body.ts'
import { median, varyMark } from './load.ts'
import { benchKey, rssMb, startMock, startPassthrough, startProxy, type Running } from './processes.ts'

type Row = Record<string, string | number>
const fmt = (n: number, digits = 0) => Number(n.toFixed(digits))
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
const gcArgs = ['--expose-gc', '--import', fileURLToPath(new URL('./gc-on-signal.mjs', import.meta.url))]

interface Burst { peak: number; open: number; openStreams: number; firsts: number[]; errors: number; seconds: number }

/** The mock's count of streams it is still dripping. */
async function mockOpen(mockUrl: string): Promise<number> {
  const response = await request(`${mockUrl}/stats`)
  return (await response.body.json() as { open: number }).open
}

/**
 * One burst of `count` streams opened at once: every stream's time to its first body byte, peak RSS of
 * `pid`, and its RSS once every stream has its first byte, after a full collection (`open`).
 */
async function burst(url: string, mockUrl: string, running: Running, model: string, count: number): Promise<Burst> {
  const [head, tail] = JSON.stringify({ ...agentBody(76, 'bench-claude'), model, messages: [...agentBody(76, 'bench-claude').messages as unknown[], { role: 'user', content: `turn ${varyMark}` }] }).split(varyMark) as [string, string]
  const agent = new Agent({ connections: count, pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 })
  let peak = rssMb(running.pid)
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(running.pid)) }, 50)
  const firsts: number[] = []
  let errors = 0
  let ended = 0
  const started = performance.now()
  const all = Promise.all(Array.from({ length: count }, async (_, i) => {
    const sent = performance.now()
    try {
      const response = await request(`${url}/v1/messages`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...agentHeaders() }, body: `${head}${i}${tail}` })
      let first = true
      let text = ''
      for await (const chunk of response.body) {
        if (first) { firsts.push(performance.now() - sent); first = false }
        text += chunk
      }
      if (response.statusCode !== 200 || !text.includes('message_stop')) errors++
    } catch {
      errors++
    } finally {
      ended++
    }
  }))
  // Every stream has its first byte (or failed): all are open now, if the drip is slow enough.
  while (firsts.length + errors < count) await sleep(20)
  const openStreams = await mockOpen(mockUrl)
  running.child.kill('SIGUSR2')
  await sleep(500)
  const open = rssMb(running.pid)
  if (ended) console.error(`  ${ended} streams had ended before the sample: raise BENCH_DRIP_MS`)
  await all
  clearInterval(sampler)
  await agent.close()
  return { peak, open, openStreams, firsts, errors, seconds: (performance.now() - started) / 1000 }
}

const sides = [['floor', 'bench-claude'], ['same format (messages -> beta)', 'bench-claude'], ['translated (messages -> compat)', 'bench']] as const
type Side = typeof sides[number][0]

/** Floor, same format and translated, interleaved run by run, each through a fresh process. */
export async function slowStreamRows(count = Number(process.env.BENCH_STREAMS ?? 1000), dripMs = Number(process.env.BENCH_DRIP_MS ?? 100), runs = Number(process.env.BENCH_RUNS ?? 3)): Promise<Row[]> {
  const mock = await startMock(dripMs)
  const results = new Map<Side, Array<Burst & { idle: number; ttfb: number }>>(sides.map(([side]) => [side, []]))
  try {
    for (let run = 0; run < runs; run++) {
      for (const [side, model] of sides) {
        const running = side === 'floor' ? await startPassthrough(mock.url, gcArgs) : await startProxy(mock.url, gcArgs)
        try {
          // Warmed (JIT, pools) by a few streams, then collected: the idle figure is what the burst adds to.
          await burst(running.url, mock.url, running, model, 10)
          running.child.kill('SIGUSR2')
          await sleep(500)
          const idle = rssMb(running.pid)
          const result = await burst(running.url, mock.url, running, model, count)
          results.get(side)!.push({ ...result, idle, ttfb: median(result.firsts) })
          console.error(`  run ${run + 1} ${side}: open ${fmt(result.open)} MB, peak ${fmt(result.peak)} MB, TTFB p50 ${fmt(median(result.firsts))} ms, ${result.openStreams} open at the sample`)
        } finally {
          await running.stop()
        }
      }
    }
  } finally {
    await mock.stop()
  }
  const floor = results.get('floor')!
  const of = (side: Side, pick: (b: Burst & { idle: number; ttfb: number }) => number) => median(results.get(side)!.map(pick))
  const floorOpen = of('floor', b => b.open)
  const floorPeak = of('floor', b => b.peak)
  return sides.map(([side]): Row => {
    const bursts = results.get(side)!
    const opens = bursts.map(b => b.open)
    const first = of(side, b => b.ttfb)
    // Added TTFB run by run (against the floor's run just before), then the median: runs drift together.
    const added = median(bursts.map((b, i) => b.ttfb - floor[i]!.ttfb))
    return {
      side, runs: bursts.length, 'idle RSS MB': fmt(of(side, b => b.idle)),
      'RSS all open MB': fmt(median(opens)), 'spread MB': `${fmt(Math.min(...opens))}-${fmt(Math.max(...opens))}`, 'open / floor': side === 'floor' ? '' : fmt(median(opens) / floorOpen, 2),
      'peak RSS MB': fmt(of(side, b => b.peak)), 'peak / floor': side === 'floor' ? '' : fmt(of(side, b => b.peak) / floorPeak, 2),
      'TTFB p50 ms': fmt(first), 'TTFB p90 ms': fmt(of(side, b => quantile(b.firsts, 0.9))), 'added TTFB p50 ms': side === 'floor' ? '' : fmt(added),
      'open at sample': Math.min(...bursts.map(b => b.openStreams)), errors: bursts.reduce((sum, b) => sum + b.errors, 0),
    }
  })
}
