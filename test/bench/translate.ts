import { codecs } from '../conformance/codecs.ts'
import { requestFixtures, streamFixtures } from '../conformance/fixtures.ts'
import { createSseParser } from '../../core/framing/sse.ts'
import type { StreamEvent } from '../../core/canonical/types.ts'

const withModel = (format: string, body: Record<string, unknown>) => format === 'generate' ? { ...body, model: 'm' } : body

/** Median µs per call over five runs of `iterations` calls. */
export function medianMicros(run: () => void, iterations: number): number {
  const runs: number[] = []
  for (let r = 0; r < 5; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < iterations; i++) run()
    runs.push(Number(process.hrtime.bigint() - start) / 1000 / iterations)
  }
  return runs.sort((a, b) => a - b)[2]!
}

/**
 * Translation cost per client -> upstream pair, per request: decode the client's request, encode it
 * for the upstream, decode the upstream's answer (a 3-event text stream plus a tool call), encode it
 * for the client. Wire inputs are produced once per format outside the timed loop.
 */
export async function benchTranslate(): Promise<Array<Record<string, string | number>>> {
  const request = requestFixtures.find(f => f.name.startsWith('tools'))!.request
  const events: StreamEvent[] = streamFixtures.find(f => f.name.startsWith('text then'))!.events
  const wire = new Map(codecs.map((codec) => {
    const body = JSON.parse(JSON.stringify(withModel(codec.format, codec.request.encode(request))))
    const encoder = codec.stream.createEncoder({ model: 'm' })
    const text = events.map(event => encoder.push(event)).join('') + encoder.end()
    const parser = createSseParser()
    return [codec.format, { body, sse: [...parser.push(text), ...parser.end()] }]
  }))
  const rows: Array<Record<string, string | number>> = []
  for (const client of codecs) {
    const row: Record<string, string | number> = { 'client \\ upstream': client.format }
    for (const upstream of codecs) {
      const input = wire.get(client.format)!
      const answer = wire.get(upstream.format)!
      row[upstream.format] = Number(medianMicros(() => {
        const canonical = client.request.decode(input.body)
        upstream.request.encode(canonical)
        const decoder = upstream.stream.createDecoder()
        const encoder = client.stream.createEncoder({ model: 'm' })
        for (const sse of answer.sse) for (const event of decoder.push(sse)) encoder.push(event)
        for (const event of decoder.end()) encoder.push(event)
        encoder.end()
      }, 5000).toFixed(1))
    }
    rows.push(row)
  }
  return rows
}
