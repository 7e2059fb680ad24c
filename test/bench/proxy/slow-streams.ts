// Many concurrent streamed 76 KB requests (a Claude Code session's first request) through a slowly
// dripping upstream: peak RSS and time to first byte of the floor, of this proxy same-format and of this
// proxy translated, each side a fresh process so its RSS is its own.
//   npm run bench -- "slow streams"     (BENCH_STREAMS: how many at once, 1000; BENCH_DRIP_MS: 20 per event)
import { request, Agent } from 'undici'
import { agentBody, agentHeaders } from './agent-body.ts'
import { median, varyMark } from './load.ts'
import { benchKey, rssMb, startMock, startPassthrough, startProxy, type Running } from './processes.ts'

type Row = Record<string, string | number>
const fmt = (n: number, digits = 0) => Number(n.toFixed(digits))
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0

/** One burst of `count` streams opened at once: every stream's time to its first body byte, peak RSS of `pid`. */
async function burst(url: string, pid: number, model: string, count: number) {
  const [head, tail] = JSON.stringify({ ...agentBody(76, 'bench-claude'), model, messages: [...agentBody(76, 'bench-claude').messages as unknown[], { role: 'user', content: `turn ${varyMark}` }] }).split(varyMark) as [string, string]
  const agent = new Agent({ connections: count, pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 })
  let peak = rssMb(pid)
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(pid)) }, 50)
  const firsts: number[] = []
  let errors = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: count }, async (_, i) => {
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
    }
  }))
  clearInterval(sampler)
  await agent.close()
  return { peak, firsts, errors, seconds: (performance.now() - started) / 1000 }
}

/** Floor, same format and translated, one after the other, each through a fresh process. */
export async function slowStreamRows(count = Number(process.env.BENCH_STREAMS ?? 1000), dripMs = Number(process.env.BENCH_DRIP_MS ?? 20)): Promise<Row[]> {
  const mock = await startMock(dripMs)
  const rows: Row[] = []
  let floorPeak = 0
  let floorFirst = 0
  try {
    for (const [side, model] of [['floor', 'bench-claude'], ['same format (messages -> beta)', 'bench-claude'], ['translated (messages -> compat)', 'bench']] as const) {
      const running: Running = side === 'floor' ? await startPassthrough(mock.url) : await startProxy(mock.url)
      try {
        const idle = rssMb(running.pid)
        const result = await burst(running.url, running.pid, model, count)
        const first = median(result.firsts)
        if (side === 'floor') { floorPeak = result.peak; floorFirst = first }
        rows.push({
          side, 'idle RSS MB': fmt(idle), 'peak RSS MB': fmt(result.peak), 'RSS / floor': side === 'floor' ? '' : fmt(result.peak / floorPeak, 2),
          'TTFB p50 ms': fmt(first), 'TTFB p90 ms': fmt(quantile(result.firsts, 0.9)), 'added TTFB p50 ms': side === 'floor' ? '' : fmt(first - floorFirst),
          'burst s': fmt(result.seconds, 1), errors: result.errors,
        })
      } finally {
        await running.stop()
      }
    }
  } finally {
    await mock.stop()
  }
  return rows
}
