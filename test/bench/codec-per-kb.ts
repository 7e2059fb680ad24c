// What a translated agent request costs per KB, step by step: the client's bytes parsed (ClientBody, by
// parts, long strings noted), decoded to canonical by the client's codec, encoded by the upstream's,
// and written as bytes (jsonBytes, the client's long strings copied). The body is the bench's 150 KB
// agent request (a recorded Claude Code request grown to a working session's history) in each client
// format, made by the proxy's own codecs from the messages original. In-process, one core, no load:
// under load every step costs 2-3x this (the collector and the caches are shared).
import { codecs } from '../conformance/codecs.ts'
import { agentBody } from './proxy/agent-body.ts'
import { ClientBody } from '../../core/http/client-body.ts'
import { jsonBytes } from '../../core/http/json-bytes.ts'
import { rawStringsOf } from '../../core/http/raw-strings.ts'
import { medianMicros } from './translate.ts'

/** Warmed first (JIT), then the median of five runs. */
function warmMedian(run: () => void, iterations: number): number {
  for (let i = 0; i < iterations; i++) run()
  return medianMicros(run, iterations)
}

const perKb = (micros: number, bytes: number) => Number((micros / (bytes / 1024)).toFixed(2))

export async function benchCodecPerKb(): Promise<Array<Record<string, string | number>>> {
  const messages = codecs.find(codec => codec.format === 'messages')!
  const canonical = messages.request.decode(agentBody(Number(process.env.BENCH_CODEC_KB ?? 150), 'bench'))
  const iterations = Number(process.env.BENCH_CODEC_ITERATIONS ?? 40)
  const rows: Array<Record<string, string | number>> = []
  for (const client of codecs) {
    // generateContent names the model in the URL; its route adds it to the body, as here.
    const wire = { ...client.request.encode(canonical), model: 'bench' }
    const bytes = Buffer.from(JSON.stringify(wire))
    const parse = warmMedian(() => new ClientBody(bytes).object(), iterations)
    const parsed = new ClientBody(bytes).object()
    const decode = warmMedian(() => client.request.decode(parsed), iterations)
    const decoded = client.request.decode(parsed)
    const row: Record<string, string | number> = { client: client.format, KB: Math.round(bytes.length / 1024), 'parse µs/KB': perKb(parse, bytes.length), 'decode µs/KB': perKb(decode, bytes.length) }
    for (const upstream of codecs) {
      const encoded = upstream.request.encode(decoded)
      const strings = rawStringsOf(parsed)
      const write = warmMedian(() => jsonBytes(upstream.request.encode(decoded), strings), iterations)
      const out = jsonBytes(encoded, strings).length
      row[`-> ${upstream.format} encode+write µs/KB`] = perKb(write, out)
    }
    rows.push(row)
  }
  return rows
}
