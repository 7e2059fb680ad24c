// The traffic coding agents really send: 76 KB (a Claude Code turn with 24 tools) and 150 KB (a working
// session's history) messages requests, answered by streams of 200 deltas. The floor pipes the same bytes
// to the same mock; the proxy serves them same-format (beta upstream) and translated (compat upstream).
import { request, Agent } from 'undici'
import { agentBody, agentHeaders, withScreenshot } from './agent-body.ts'
import { load, median, varyMark } from './load.ts'
import { benchKey, cpuMicros, rssMb, startMock, startProxy, type Running } from './processes.ts'

export interface Side { name: string; run: Running; headers?: Record<string, string>; model?: string }
type Row = Record<string, string | number>

const fmt = (n: number, digits = 2) => Number(n.toFixed(digits))
export interface AgentCase { kb: number; mode: string; model: string; first?: boolean; screenshot?: boolean }
export const agentCases: readonly AgentCase[] = [
  { kb: 76, mode: 'same format (messages -> beta)', model: 'bench-claude' },
  { kb: 76, mode: 'translated (messages -> compat)', model: 'bench' },
  { kb: 150, mode: 'same format (messages -> beta)', model: 'bench-claude' },
  { kb: 150, mode: 'translated (messages -> compat)', model: 'bench' },
]
/** The 150 KB next turn translated, with a screenshot the user pasted at the session's start (resent every turn). */
export const screenshotCase: AgentCase = { kb: 150, mode: 'translated (messages -> compat)', model: 'bench', screenshot: true }
/** The 76 KB request as the first of a session: nothing in it was sent before (no cache can answer for it). */
export const firstRequestCases: readonly AgentCase[] = agentCases.filter(test => test.kb === 76).map(test => ({ ...test, first: true }))

/**
 * Every request is the agent's next turn: the same history and tools, and a last message of its own. A
 * body sent again and again would be served from the last-turn cache (core/json/turn-cache.ts)
 * more than real sessions are.
 */
const nextTurn = (body: Record<string, unknown>) => ({ ...body, messages: [...(body.messages as unknown[]), { role: 'user', content: `turn ${varyMark}` }] })
/** A session's first request: every message carries the request's own number, so no part of it came before. */
const firstTurn = (body: Record<string, unknown>) => ({ ...body, messages: (body.messages as Array<{ content: unknown }>).map(message => ({ ...message, content: typeof message.content === 'string' ? `${varyMark} ${message.content}` : [{ type: 'text', text: varyMark }, ...(message.content as unknown[])] })) })

/** c=16 throughput and CPU per request, every side interleaved per round; medians. */
async function loadSide(side: Side, body: Record<string, unknown>, seconds: number) {
  const before = cpuMicros(side.run.pid)
  const result = await load(`${side.run.url}/v1/messages`, side.model ? { ...body, model: side.model } : body, 16, seconds, { ...agentHeaders(), ...side.headers }, true)
  return { ...result, cpu: (cpuMicros(side.run.pid) - before) / Math.max(1, result.requests) }
}

/**
 * Time to the last byte of one whole streamed answer at c=1, median ms per side: one request to each side
 * in turn, so a slow second on the machine lands on every side alike (60 requests per side one side
 * after the other swung the translated row's added time by about a millisecond between runs).
 */
async function sequential(sides: Side[], body: Record<string, unknown>, count: number): Promise<Map<string, number>> {
  const agent = new Agent({ keepAliveTimeout: 10_000 })
  const payloads = sides.map(side => JSON.stringify(side.model ? { ...body, model: side.model } : body).split(varyMark))
  const times = sides.map(() => [] as number[])
  for (let i = 0; i < count; i++) {
    for (const [at, side] of sides.entries()) {
      const start = performance.now()
      const response = await request(`${side.run.url}/v1/messages`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...agentHeaders(), ...side.headers }, body: payloads[at]!.join(`${i}.${at}`) })
      await response.body.text()
      times[at]!.push(performance.now() - start)
    }
  }
  await agent.close()
  return new Map(sides.map((side, at) => [side.name, median(times[at]!)]))
}

/**
 * One row per side per case: rps at c=16 and its ratio to the floor, p99, CPU per request and its ratio to
 * the floor's, and the added time of one request at c=1. Sides that cannot serve a case (a peer without
 * a same-format route) are left out of it.
 */
export async function agentRows(floor: Running, proxy: Running, peers: Array<Side & { cases: 'translated' | 'same' }>, seconds: number, rounds: number, cases: readonly AgentCase[] = agentCases): Promise<Row[]> {
  const rows: Row[] = []
  for (const test of cases) {
    const agent = agentBody(test.kb, test.model)
    const body = (test.first ? firstTurn : nextTurn)(test.screenshot ? withScreenshot(agent) : agent)
    const translated = test.model === 'bench'
    const sides: Side[] = [{ name: 'floor', run: floor }, { name: 'this proxy', run: proxy }, ...peers.filter(p => p.cases === (translated ? 'translated' : 'same'))]
    // Warm: JIT, pools. The proxy's first seconds cost about twice its steady state, and it idles while the peers run.
    for (const side of sides) await loadSide(side, body, 2)
    const runs = new Map<string, Array<Awaited<ReturnType<typeof loadSide>>>>(sides.map(s => [s.name, []]))
    for (let round = 0; round < rounds; round++) for (const side of sides) runs.get(side.name)!.push(await loadSide(side, body, seconds))
    const c1 = await sequential(sides, body, 100)
    const floorRps = median(runs.get('floor')!.map(r => r.rps))
    const floorCpu = median(runs.get('floor')!.map(r => r.cpu))
    for (const side of sides) {
      const list = runs.get(side.name)!
      const rps = median(list.map(r => r.rps))
      const cpu = median(list.map(r => r.cpu))
      rows.push({
        case: `${Math.round(JSON.stringify(body).length / 1024)} KB${test.first ? ' first request' : ''}${test.screenshot ? ' (a screenshot in its history)' : ''}, ${test.mode}`, side: side.name,
        'rps c=16': fmt(rps, 0), 'ratio to floor': fmt(rps / floorRps), 'p99 ms': median(list.map(r => r.p99)),
        'CPU ms/request': fmt(cpu / 1000, 2), 'CPU / floor': side.name === 'floor' ? '' : fmt(cpu / floorCpu),
        'c=1 ms': fmt(c1.get(side.name)!, 2), 'added c=1 ms': side.name === 'floor' ? '' : fmt(c1.get(side.name)! - c1.get('floor')!, 2),
        errors: list.reduce((sum, r) => sum + r.errors, 0),
      })
    }
  }
  return rows
}

/** 200 concurrent 150 KB streamed requests at once through a fresh proxy on a slow-dripping upstream: RSS. */
export async function agentMemoryRow(concurrent = 200): Promise<Row[]> {
  const mock = await startMock(10)
  const proxy = await startProxy(mock.url)
  const results: Row[] = []
  try {
    const [head, tail] = JSON.stringify(nextTurn(agentBody(150, 'bench-claude'))).split(varyMark) as [string, string]
    let turn = 0
    const agent = new Agent({ connections: concurrent, pipelining: 1 })
    const idle = rssMb(proxy.pid)
    for (const [label, model] of [['same format', 'bench-claude'], ['translated', 'bench']] as const) {
      let peak = 0
      const sampler = setInterval(() => { peak = Math.max(peak, rssMb(proxy.pid)) }, 50)
      let errors = 0
      const started = performance.now()
      await Promise.all(Array.from({ length: concurrent }, async () => {
        try {
          const payload = `${head}${++turn}${tail}`.replace('"model":"bench-claude"', `"model":"${model}"`)
          const response = await request(`${proxy.url}/v1/messages`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...agentHeaders() }, body: payload })
          const text = await response.body.text()
          if (response.statusCode !== 200 || !text.includes('message_stop')) errors++
        } catch {
          errors++
        }
      }))
      clearInterval(sampler)
      results.push({ scenario: `${concurrent} concurrent 150 KB streams (200 deltas over ~2 s), ${label}`, 'idle RSS MB': fmt(idle, 0), 'peak RSS MB': fmt(peak, 0), 'burst s': fmt((performance.now() - started) / 1000, 1), errors })
    }
    await agent.close()
  } finally {
    await proxy.stop()
    await mock.stop()
  }
  return results
}
