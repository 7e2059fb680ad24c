// What one open agent stream holds in the proxy, after full collections: N streamed 76 KB requests are
// opened (each read to its first byte, the upstream dripping slowly), then the proxy's JS heap and
// external memory (Buffers) are compared with its idle state. Deterministic where peak RSS under a burst
// is not (it swings with how many streams overlap on a busy machine).
//   node --import jiti/register test/bench/open-streams.ts            (OPEN_STREAMS: 200; PROF_ROOT: another checkout)
// OPEN_HOLD_MS: how long the streams stay open before the count (0: at their first byte), OPEN_DRIP_MS: the
// upstream's wait between events (200). Held open a while, each stream has read that many events: what a
// stream keeps of the events it passed (the usage tap's tail) shows, as in the slow-streams bench, where
// streams are counted 10 s into their answer (OPEN_DRIP_MS=20 OPEN_HOLD_MS=2000: ~100 of 200 events read).
import { fileURLToPath } from 'node:url'
import { request, Agent } from 'undici'
import { agentBody, agentHeaders } from './proxy/agent-body.ts'
import { benchKey, startMock, startProxy } from './proxy/processes.ts'

const count = Number(process.env.OPEN_STREAMS ?? 200)
const holdMs = Number(process.env.OPEN_HOLD_MS ?? 0)
const mock = await startMock(Number(process.env.OPEN_DRIP_MS ?? 200))
const proxy = await startProxy(mock.url, ['--expose-gc', '--import', fileURLToPath(new URL('./proxy/heap-on-signal.mjs', import.meta.url))], process.env.PROF_ROOT)
let out = ''
proxy.child.stdout!.on('data', (chunk: Buffer) => { out += chunk })
/** [heapUsed, external, arrayBuffers, rss] after two full collections. */
async function held(): Promise<number[]> {
  const from = out.length
  proxy.child.kill('SIGUSR2')
  while (!/heap .*\n/.test(out.slice(from))) await new Promise(resolve => setTimeout(resolve, 20))
  return /heap (\d+) (\d+) (\d+) (\d+)/.exec(out.slice(from))!.slice(1).map(Number)
}
const agent = new Agent({ connections: count, pipelining: 1 })
/** Opens streams until their first byte; returns what ends them. */
async function open(model: string, streams: number): Promise<() => void> {
  const controllers = Array.from({ length: streams }, () => new AbortController())
  await Promise.all(controllers.map(async (controller, i) => {
    const body = JSON.stringify({ ...agentBody(76, 'bench-claude'), model, metadata: { user_id: `stream-${i}` } })
    const response = await request(`${proxy.url}/v1/messages`, { method: 'POST', dispatcher: agent, signal: controller.signal, headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...agentHeaders() }, body })
    await response.body[Symbol.asyncIterator]().next()
  }))
  return () => { for (const controller of controllers) controller.abort() }
}
const rows = []
try {
  for (const [mode, model] of [['translated (messages -> compat)', 'bench'], ['same format (messages -> beta)', 'bench-claude']] as const) {
    // Warmed: JIT, pools, caches.
    ;(await open(model, 20))()
    await new Promise(resolve => setTimeout(resolve, 1500))
    const idle = await held()
    const close = await open(model, count)
    if (holdMs) await new Promise(resolve => setTimeout(resolve, holdMs))
    const busy = await held()
    close()
    await new Promise(resolve => setTimeout(resolve, 2000))
    const kb = (at: number) => Number(((busy[at]! - idle[at]!) / count / 1024).toFixed(1))
    rows.push({ mode, streams: count, 'JS heap KB per stream': kb(0), 'external KB per stream': kb(1), 'RSS MB with all open': Math.round(busy[3]! / 1048576) })
  }
} finally {
  await agent.close().catch(() => {})
  await proxy.stop()
  await mock.stop()
}
console.table(rows)
process.exit(0)
