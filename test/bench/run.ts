// `npm run bench`: prints numbers, asserts nothing (tests assert behaviour).
import { benchRoutingPick } from './routing-pick.ts'
import { benchRoutingFeatures } from './routing-features.ts'
import { benchTranslate } from './translate.ts'
import { benchCodecPerKb } from './codec-per-kb.ts'
import { benchImageTranslation } from './image-translation.ts'
import { benchStreamAnswer } from './stream-answer.ts'
import { benchUsageTap } from './usage-tap.ts'
import { benchProxy } from './proxy/index.ts'
import { benchAgent } from './proxy/agent.ts'
import { benchStack } from './proxy/stack.ts'
import { benchUpstreamClient } from './proxy/upstream-client.ts'
import { openRate, slowStreamRows } from './proxy/slow-streams.ts'
import { cpus } from 'node:os'

const withGateway = process.argv.includes('--gateway') || process.env.BENCH_GATEWAY === 'portkey'
const only = process.argv.slice(2).find(arg => !arg.startsWith('--'))
const suites: Record<string, () => Promise<Array<Record<string, string | number>>>> = {
  'routing pick+mark': benchRoutingPick,
  'agent routing features, µs per request': benchRoutingFeatures,
  'translation µs per request (client row, upstream column; streamed answer)': benchTranslate,
  'agent request translation per KB (150 KB agent body in each client format; in-process, no load)': benchCodecPerKb,
  'image translation: a 1.1 MB screenshot, µs per request (in-process, no load)': benchImageTranslation,
  'stream answer, 200 events as 200 upstream chunks (in-process, no load)': benchStreamAnswer,
  'usage tap: a 200-delta same-format answer, bytes only against every event decoded (in-process, no load)': benchUsageTap,
  'upstream client alone: 150 KB agent request, 200-delta stream, c=16 (this process\'s CPU)': benchUpstreamClient,
}
console.log(`# npm run bench — ${new Date().toISOString()} — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`)
for (const [name, run] of Object.entries(suites)) {
  if (only && !name.includes(only)) continue
  console.log(`\n## ${name}`)
  console.table(await run())
}
const tables: Array<[string, () => Promise<Array<[string, Array<Record<string, string | number>>]>>]> = [
  ['proxy', () => benchProxy(withGateway)],
  ['agent', benchAgent],
  ['stack', benchStack],
  ['slow streams', async () => {
    const [rows, memory] = await slowStreamRows()
    return [
      [`1,000 concurrent slow streams of the 76 KB request (200 events, one each 100 ms: all open at once; ${openRate() ? `opened ${openRate()} a second` : 'opened all at once'}): RSS with all open after a full collection, peak RSS, and time to first byte from the body sent, medians of fresh processes`, rows],
      ['where the memory is (process.memoryUsage(), MB, medians): idle, the burst\'s high-water (each field its own), all open after a full collection', memory],
    ]
  }],
]
for (const [name, run] of tables) {
  if (only && !name.includes(only)) continue
  for (const [title, rows] of await run()) {
    console.log(`\n## ${title}`)
    console.table(rows)
  }
}
