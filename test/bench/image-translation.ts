// What a translated request carrying a screenshot costs: a 1.1 MB PNG's base64 (1.5 MB of JSON) from a
// messages client (base64 in the block) and from a chat client (a data URL), parsed, decoded, encoded for
// each upstream format and written as bytes; a first request (nothing cached) and a next turn (the same
// image, a message more, the last-turn cache warm). In-process, µs per request. Data URLs are joined and cut
// without building the strings whole (core/json/derived-strings.ts): before that, a chat or responses
// upstream cost ~3.5 ms more per image than one that takes the base64 as it is.
import { randomBytes } from 'node:crypto'
import { codecs } from '../conformance/codecs.ts'
import { ClientBody } from '../../core/json/index.ts'
import { jsonBytes } from '../../core/json/json-bytes.ts'
import { TurnCache } from '../../core/json/turn-cache.ts'
import { medianMicros } from './translate.ts'

const data = randomBytes(1_100_000).toString('base64')
const clients = {
  messages: (turn: number) => ({ model: 'bench', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }, { type: 'text', text: 'what is on the screen?' }] }, { role: 'assistant', content: 'a chart' }, { role: 'user', content: `and now ${turn}` }] }),
  chat: (turn: number) => ({ model: 'bench', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } }, { type: 'text', text: 'what is on the screen?' }] }, { role: 'assistant', content: 'a chart' }, { role: 'user', content: `and now ${turn}` }] }),
}

export async function benchImageTranslation(): Promise<Array<Record<string, string | number>>> {
  const iterations = Number(process.env.BENCH_IMAGE_ITERATIONS ?? 20)
  const rows: Array<Record<string, string | number>> = []
  for (const [format, body] of Object.entries(clients)) {
    const client = codecs.find(codec => codec.format === format)!
    const turns = Array.from({ length: 8 }, (_, turn) => Buffer.from(JSON.stringify(body(turn))))
    const row: Record<string, string | number> = { client: format, 'body KB': Math.round(turns[0]!.length / 1024) }
    for (const upstream of codecs) {
      let n = 0
      let scope = 0
      const translate = (bytes: Buffer, key: string, cache?: TurnCache) => {
        const body = new ClientBody(bytes, key)
        return jsonBytes(upstream.request.encode(client.request.decode(body.object())), body.rawStrings, cache, cache && key).length
      }
      // A first request: a client key the caches have never seen.
      const first = () => translate(turns[0]!, `first-${format}-${upstream.format}-${scope++}`)
      const cache = new TurnCache()
      const next = () => translate(turns[n++ % turns.length]!, `next-${format}-${upstream.format}`, cache)
      // Next turns first: each first request stores its parts under a new client key, which pushes older
      // ones out of the process's last-turn cache.
      for (let i = 0; i < 5; i++) next()
      const nextTurn = medianMicros(next, iterations)
      for (let i = 0; i < 5; i++) first()
      row[`-> ${upstream.format} first / next turn µs`] = `${Math.round(medianMicros(first, iterations))} / ${Math.round(nextTurn)}`
    }
    rows.push(row)
  }
  return rows
}
