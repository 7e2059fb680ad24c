// Preloaded (with --expose-gc) by the slow-streams bench, on the floor and the proxy alike: where the
// resident memory goes. Samples process.memoryUsage() every 50 ms and keeps each field's high-water; on
// SIGUSR2, a full collection and 300 ms, then one line on stdout:
//   memory {"now":{rss,heapTotal,heapUsed,external,arrayBuffers},"peak":{...}}   (bytes; peak since the last line)
// BENCH_SPACES=1: also each V8 space's [committed, used] MB on stderr (which space holds the slack).
import { getHeapSpaceStatistics } from 'node:v8'

const fields = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers']
const pick = m => Object.fromEntries(fields.map(field => [field, m[field]]))
let peak = pick(process.memoryUsage())
setInterval(() => {
  const m = process.memoryUsage()
  for (const field of fields) peak[field] = Math.max(peak[field], m[field])
}, 50).unref()
process.on('SIGUSR2', () => {
  globalThis.gc()
  // V8 hands freed pages back to the system shortly after a collection, not in it.
  setTimeout(() => {
    const now = pick(process.memoryUsage())
    if (process.env.BENCH_SPACES) console.error(`spaces ${JSON.stringify(Object.fromEntries(getHeapSpaceStatistics().map(s => [s.space_name, [Math.round(s.space_size / 1048576), Math.round(s.space_used_size / 1048576)]])))}`)
    console.log(`memory ${JSON.stringify({ now, peak })}`)
    peak = now
  }, 300)
})
