import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { answerOf, upstreamFormats, type UpstreamFamily } from './stream-whole/answers.ts'
import { clientFormats, readThrough, type Seen } from './stream-whole/clients.ts'
import { familyModel, scriptOf, startRig, writesArbitrary, type Rig } from './stream-whole/upstream.ts'
import type { CanonicalResponse, Usage } from '../../core/canonical/types.ts'

/**
 * Differential: one upstream answer, served whole to a whole request and streamed (cut at random bytes)
 * to a stream request, must leave a client with the same result in every client x upstream pair, read
 * through the format's real SDK. The proxy's recorded usage must match too. FUZZ_RUNS sets runs per pair.
 */

const runs = Number(process.env.FUZZ_RUNS ?? 40)
let rig: Rig
beforeAll(async () => { rig = await startRig() })
afterAll(async () => { await rig?.close() })

/** The usage the proxy records for the request that just ended (a stream's after-response runs at its end). */
async function recordedAfter(count: number): Promise<Usage | undefined> {
  for (let i = 0; i < 200 && rig.recorded.length <= count; i++) await new Promise(resolve => setTimeout(resolve, 5))
  expect(rig.recorded).toHaveLength(count + 1)
  return rig.recorded[count]
}

async function read(client: (typeof clientFormats)[number], family: UpstreamFamily, stream: boolean): Promise<{ seen: Seen; usage?: Usage }> {
  const before = rig.recorded.length
  const seen = await readThrough(client, rig.proxy.url, familyModel(family), stream)
  return { seen, usage: await recordedAfter(before) }
}

/** docs/translation.md: arguments cut by the token limit read as each side could parse them. */
function documented(seen: Seen, answer: CanonicalResponse): Seen {
  const last = answer.parts.at(-1)
  if (last?.type !== 'tool_call' || isJson(last.arguments)) return seen
  return { ...seen, calls: seen.calls.map((call, i) => i === seen.calls.length - 1 ? { ...call, args: 'cut' } : call) }
}
const isJson = (text: string) => { try { JSON.parse(text); return true } catch { return false } }

const pairs = clientFormats.flatMap(client => (Object.keys(upstreamFormats) as UpstreamFamily[]).map(family => ({ client, family, name: `${client} client, ${family} upstream (${upstreamFormats[family]})` })))

describe.each(pairs)('$name', ({ client, family }) => {
  it('a streamed answer reads as the same answer whole', async () => {
    const cuts = fc.array(fc.nat(10_000), { maxLength: 8 })
    await fc.assert(fc.asyncProperty(answerOf(family), cuts, writesArbitrary, fc.boolean(), async (answer, textCuts, writes, variant) => {
      rig.serve(family, scriptOf(family, answer, textCuts, writes, variant, upstreamFormats[family] !== client))
      const whole = await read(client, family, false)
      const streamed = await read(client, family, true)
      expect(documented(streamed.seen, answer)).toEqual(documented(whole.seen, answer))
      expect(whole.usage).toBeDefined()
      expect(streamed.usage).toEqual(whole.usage)
    }), { numRuns: runs })
  }, 120_000)
})
