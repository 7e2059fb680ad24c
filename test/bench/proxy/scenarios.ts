import { request, Agent } from 'undici'
import { load, median, type LoadResult } from './load.ts'
import { benchKey, cpuMicros, rssMb, startMock, startPassthrough, startProxy, type Running } from './processes.ts'

const chatBody = (model: string, stream = false) => ({ model, stream, messages: [{ role: 'user', content: 'hello' }] })
const messagesBody = { model: 'bench', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }
const fmt = (n: number, digits = 2) => Number(n.toFixed(digits))

/** Interleaved rounds (A B A B ...): medians of each side, so drift hits both alike. */
async function interleave(rounds: number, a: () => Promise<LoadResult>, b: () => Promise<LoadResult>) {
  const as: LoadResult[] = []
  const bs: LoadResult[] = []
  for (let i = 0; i < rounds; i++) {
    as.push(await a())
    bs.push(await b())
  }
  const pick = (list: LoadResult[]) => ({ rps: median(list.map(r => r.rps)), p50: median(list.map(r => r.p50)), p99: median(list.map(r => r.p99)), errors: list.reduce((s, r) => s + r.errors, 0) })
  return { floor: pick(as), proxy: pick(bs) }
}

export async function throughputRows(floor: string, proxy: string, seconds: number, rounds: number) {
  const rows: Array<Record<string, string | number>> = []
  const row = (name: string, r: Awaited<ReturnType<typeof interleave>>) => rows.push({
    scenario: name, 'floor rps': fmt(r.floor.rps, 0), 'proxy rps': fmt(r.proxy.rps, 0), 'ratio': fmt(r.proxy.rps / r.floor.rps),
    'floor p50 ms': r.floor.p50, 'proxy p50 ms': r.proxy.p50, 'added p50 ms': fmt(r.proxy.p50 - r.floor.p50), 'floor p99 ms': r.floor.p99, 'proxy p99 ms': r.proxy.p99, errors: r.floor.errors + r.proxy.errors,
  })
  for (const connections of [32, 1]) {
    row(`same-format chat, c=${connections}`, await interleave(rounds,
      () => load(`${floor}/v1/chat/completions`, chatBody('bench'), connections, seconds),
      () => load(`${proxy}/v1/chat/completions`, chatBody('bench'), connections, seconds)))
  }
  row('translated: chat client -> messages upstream, c=32', await interleave(rounds,
    () => load(`${floor}/v1/chat/completions`, chatBody('bench'), 32, seconds),
    () => load(`${proxy}/v1/chat/completions`, chatBody('bench-claude'), 32, seconds)))
  row('translated: messages client -> chat upstream, c=32', await interleave(rounds,
    () => load(`${floor}/v1/messages`, messagesBody, 32, seconds),
    () => load(`${proxy}/v1/messages`, messagesBody, 32, seconds)))
  return rows
}

/**
 * The same small requests streamed, against a mock that writes each of the 64 events on its own (as
 * upstreams send tokens): what a coding agent's short turns cost. Floor and proxy read the same number of
 * upstream chunks, so the proxy's per-request work is measured beside the floor's per-event work.
 */
export async function streamedThroughputRows(floor: string, proxy: string, seconds: number, rounds: number) {
  const rows: Array<Record<string, string | number>> = []
  const sse = { accept: 'text/event-stream' }
  const streamedMessages = { ...messagesBody, stream: true }
  const row = (name: string, r: Awaited<ReturnType<typeof interleave>>) => rows.push({
    scenario: name, 'floor rps': fmt(r.floor.rps, 0), 'proxy rps': fmt(r.proxy.rps, 0), 'ratio': fmt(r.proxy.rps / r.floor.rps),
    'floor p50 ms': r.floor.p50, 'proxy p50 ms': r.proxy.p50, 'added p50 ms': fmt(r.proxy.p50 - r.floor.p50), 'floor p99 ms': r.floor.p99, 'proxy p99 ms': r.proxy.p99, errors: r.floor.errors + r.proxy.errors,
  })
  for (const connections of [32, 1]) {
    row(`same-format chat stream, c=${connections}`, await interleave(rounds,
      () => load(`${floor}/v1/chat/completions`, chatBody('bench', true), connections, seconds, sse),
      () => load(`${proxy}/v1/chat/completions`, chatBody('bench', true), connections, seconds, sse)))
  }
  row('translated stream: chat client -> messages upstream, c=32', await interleave(rounds,
    () => load(`${floor}/v1/chat/completions`, chatBody('bench', true), 32, seconds, sse),
    () => load(`${proxy}/v1/chat/completions`, chatBody('bench-claude', true), 32, seconds, sse)))
  row('translated stream: messages client -> chat upstream, c=32', await interleave(rounds,
    () => load(`${floor}/v1/messages`, streamedMessages, 32, seconds, sse),
    () => load(`${proxy}/v1/messages`, streamedMessages, 32, seconds, sse)))
  return rows
}

/** Time to first and last byte of a 64-delta stream, sequentially, floor vs proxy (median ms). */
export async function streamRows(floor: string, proxy: string, count: number) {
  const agent = new Agent({ keepAliveTimeout: 10_000 })
  const measure = async (url: string) => {
    const start = performance.now()
    const response = await request(`${url}/v1/chat/completions`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${benchKey}` }, body: JSON.stringify(chatBody('bench', true)) })
    let first = 0
    for await (const _chunk of response.body) if (!first) first = performance.now() - start
    return { first, last: performance.now() - start }
  }
  const floors: Array<{ first: number; last: number }> = []
  const proxies: Array<{ first: number; last: number }> = []
  for (let i = 0; i < count; i++) {
    floors.push(await measure(floor))
    proxies.push(await measure(proxy))
  }
  await agent.close()
  const m = (list: typeof floors, key: 'first' | 'last') => median(list.map(x => x[key]))
  return [{
    scenario: `stream of 64 deltas, ${count} sequential`,
    'floor TTFB ms': fmt(m(floors, 'first'), 3), 'proxy TTFB ms': fmt(m(proxies, 'first'), 3), 'added TTFB ms': fmt(m(proxies, 'first') - m(floors, 'first'), 3),
    'floor TTLB ms': fmt(m(floors, 'last'), 3), 'proxy TTLB ms': fmt(m(proxies, 'last'), 3), 'added TTLB ms': fmt(m(proxies, 'last') - m(floors, 'last'), 3),
  }]
}

/** Added latency at concurrency 1, measured per request in µs (autocannon reports whole milliseconds). */
export async function latencyRow(floor: string, proxy: string, count: number) {
  const agent = new Agent({ keepAliveTimeout: 10_000 })
  const once = async (url: string) => {
    const start = performance.now()
    const response = await request(`${url}/v1/chat/completions`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}` }, body: JSON.stringify(chatBody('bench')) })
    await response.body.text()
    return performance.now() - start
  }
  const floors: number[] = []
  const proxies: number[] = []
  for (let i = 0; i < count; i++) {
    floors.push(await once(floor))
    proxies.push(await once(proxy))
  }
  await agent.close()
  return [{ scenario: `same-format chat, c=1, ${count} sequential`, 'floor p50 ms': fmt(median(floors), 3), 'proxy p50 ms': fmt(median(proxies), 3), 'added p50 ms': fmt(median(proxies) - median(floors), 3) }]
}

/** CPU µs each process spends per request (same-format chat, c=32), floor and proxy interleaved, medians. */
export async function cpuRow(floorRun: Running, proxyRun: Running, seconds: number, rounds: number) {
  const perRequest = async (run: Running) => {
    const before = cpuMicros(run.pid)
    const result = await load(`${run.url}/v1/chat/completions`, chatBody('bench'), 32, seconds)
    return (cpuMicros(run.pid) - before) / result.requests
  }
  const floors: number[] = []
  const proxies: number[] = []
  for (let i = 0; i < rounds; i++) {
    floors.push(await perRequest(floorRun))
    proxies.push(await perRequest(proxyRun))
  }
  const floor = median(floors)
  const proxy = median(proxies)
  return [{ scenario: `CPU per request, same-format chat c=32 (median of ${rounds})`, 'floor CPU µs/request': fmt(floor, 0), 'proxy CPU µs/request': fmt(proxy, 0), 'proxy / floor': fmt(proxy / floor) }]
}

/** One burst of `streams` streams opened at once; resolves when all have ended. */
async function streamBurst(url: string, streams: number) {
  const agent = new Agent({ connections: streams, pipelining: 1 })
  let errors = 0
  let completed = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: streams }, async () => {
    try {
      const response = await request(`${url}/v1/chat/completions`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}` }, body: JSON.stringify(chatBody('bench', true)) })
      if (response.statusCode !== 200) errors++
      const text = await response.body.text()
      if (text.includes('[DONE]')) completed++
      else errors++
    } catch {
      errors++
    }
  }))
  await agent.close()
  return { errors, completed, seconds: (performance.now() - started) / 1000 }
}

/**
 * 1,000 streams open at once through a fresh proxy on a slow-dripping upstream, twice: RSS during and
 * after each burst. The upstream counts how many it held open at once (all of them, or a pool queued some).
 */
export async function concurrentStreamsRow(streams: number) {
  const mock = await startMock(50)
  const floor = await startPassthrough(mock.url)
  const proxy = await startProxy(mock.url)
  const settle = () => new Promise(resolve => setTimeout(resolve, 5000))
  try {
    const idle = rssMb(proxy.pid)
    const bursts = []
    for (let i = 0; i < 2; i++) {
      let peak = 0
      const sampler = setInterval(() => { peak = Math.max(peak, rssMb(proxy.pid)) }, 100)
      const cpuBefore = cpuMicros(proxy.pid)
      const burst = await streamBurst(proxy.url, streams)
      const cpu = cpuMicros(proxy.pid) - cpuBefore
      clearInterval(sampler)
      await settle()
      bursts.push({ ...burst, peak, cpu, after: rssMb(proxy.pid) })
    }
    // The same burst through the floor: what relaying this many streamed chunks costs any Node proxy.
    const floorBefore = cpuMicros(floor.pid)
    const floorBurst = await streamBurst(floor.url, streams)
    const floorCpu = cpuMicros(floor.pid) - floorBefore
    const chunks = 66 * streams
    const { peakOpen } = await (await fetch(`${mock.url}/stats`)).json() as { peakOpen: number }
    const [first, second] = bursts as [typeof bursts[0], typeof bursts[0]]
    return [{
      scenario: `${streams} concurrent streams (64 deltas over ~3.3 s), two bursts`,
      'idle RSS MB': fmt(idle, 0), 'peak RSS MB': fmt(Math.max(first.peak, second.peak), 0),
      'RSS 5 s after 1st MB': fmt(first.after, 0), 'RSS 5 s after 2nd MB': fmt(second.after, 0),
      'upstream streams open at once': peakOpen, 'burst s': `${fmt(first.seconds, 1)} / ${fmt(second.seconds, 1)}`,
      'CPU µs per chunk, floor / proxy': `${fmt(floorCpu / chunks, 0)} / ${fmt(Math.min(first.cpu, second.cpu) / chunks, 0)}`,
      completed: first.completed + second.completed + floorBurst.completed, errors: first.errors + second.errors + floorBurst.errors,
    }]
  } finally {
    await Promise.all([proxy.stop(), floor.stop()])
    await mock.stop()
  }
}
