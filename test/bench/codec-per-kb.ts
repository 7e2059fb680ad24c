// What a translated agent request costs per KB, step by step: the client's bytes parsed (by parts, long
// strings noted), decoded to canonical by the client's codec, encoded by the upstream's, and written as
// bytes (jsonBytes, the client's long strings copied). The body is the bench's 150 KB agent request (a
// recorded Claude Code request grown to a working session's history) in each client format, made by the
// proxy's own codecs from the messages original. In-process, one core, no load: under load every step
// costs 2-3x this (the collector and the caches are shared).
// Two columns per step where the last-turn cache matters: "first" (nothing cached: a conversation's first
// request, or every message new) and "next turn" (the same conversation one message later: the caches
// hold the last turn's parts, as in an agent session). Sixteen next turns are taken in turn, so no body
// is ever the one just seen.
import { codecs } from '../conformance/codecs.ts'
import { agentBody } from './proxy/agent-body.ts'
import { ClientBody, maxJsonDepth } from '../../core/json/index.ts'
import { scanTopLevel } from '../../core/json/body-scan.ts'
import { jsonBytes } from '../../core/json/json-bytes.ts'
import { TurnCache } from '../../core/json/turn-cache.ts'
// The parse by parts itself, measured apart from the body that uses it.
import { parseByParts, wholeBytes } from '../../core/json/json-parts.ts'
import { RawStrings } from '../../core/json/raw-strings.ts'
import { medianMicros } from './translate.ts'

/** Warmed first (JIT), then the median of five runs. */
function warmMedian(run: () => void, iterations: number): number {
  for (let i = 0; i < iterations; i++) run()
  return medianMicros(run, iterations)
}

const perKb = (micros: number, bytes: number) => Number((micros / (bytes / 1024)).toFixed(2))
const turns = 16

export async function benchCodecPerKb(): Promise<Array<Record<string, string | number>>> {
  const messages = codecs.find(codec => codec.format === 'messages')!
  const original = agentBody(Number(process.env.BENCH_CODEC_KB ?? 150), 'bench') as { messages: unknown[] }
  // The next turns: the same conversation with one more message, each its own.
  const canonicals = Array.from({ length: turns }, (_, n) => messages.request.decode({ ...original, messages: [...original.messages, { role: 'user', content: `and now step ${n}: ${'go on '.repeat(n + 4)}` }] }))
  const iterations = Number(process.env.BENCH_CODEC_ITERATIONS ?? 40)
  const rows: Array<Record<string, string | number>> = []
  for (const client of codecs) {
    // generateContent names the model in the URL; its route adds it to the body, as here.
    const bodies = canonicals.map(canonical => Buffer.from(JSON.stringify({ ...client.request.encode(canonical), model: 'bench' })))
    const bytes = bodies[0]!
    let turn = 0
    const next = () => bodies[turn++ % turns]!
    const first = warmMedian(() => parseByParts(bytes, scanTopLevel(bytes, maxJsonDepth)!, wholeBytes, new RawStrings(bytes)), iterations)
    const scope = `per-kb-${client.format}`
    const nextTurn = warmMedian(() => new ClientBody(next(), scope).object(), iterations)
    const clientBodies = bodies.map(body => new ClientBody(body, scope))
    const parsed = clientBodies.map(body => body.object())
    const decode = warmMedian(() => client.request.decode(parsed[0]!), iterations)
    const decoded = parsed.map(body => client.request.decode(body))
    const row: Record<string, string | number> = { client: client.format, KB: Math.round(bytes.length / 1024), 'parse µs/KB first / next turn': `${perKb(first, bytes.length)} / ${perKb(nextTurn, bytes.length)}`, 'decode µs/KB': perKb(decode, bytes.length) }
    for (const upstream of codecs) {
      const strings = clientBodies.map(body => body.rawStrings)
      const out = jsonBytes(upstream.request.encode(decoded[0]!), strings[0]).length
      const write = warmMedian(() => jsonBytes(upstream.request.encode(decoded[0]!), strings[0]), iterations)
      const cache = new TurnCache()
      const writeNext = warmMedian(() => { const i = turn++ % turns; jsonBytes(upstream.request.encode(decoded[i]!), strings[i], cache, scope) }, iterations)
      row[`-> ${upstream.format} encode+write µs/KB`] = `${perKb(write, out)} / ${perKb(writeNext, out)}`
    }
    rows.push(row)
  }
  return rows
}
