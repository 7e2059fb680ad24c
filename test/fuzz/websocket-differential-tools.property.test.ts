import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { families, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'
import { envelopeSession, inSession, normalize, overHttp, socketSession } from './ws-differential.ts'

/**
 * The playground mock upstreams of every family, a responses request with tools and instructions,
 * answered with text or a tool call: the same events over the `/v1/responses` socket, `/v1/ws` and HTTP.
 * `FUZZ_RUNS` runs longer.
 */
const runs = Number(process.env.FUZZ_RUNS || 8)
let env: FamilyProxy
beforeAll(async () => { env = await startFamilyProxy() })
afterAll(async () => { await env?.close() })

const tool = { type: 'function', name: 'lookup', description: 'look up', parameters: { type: 'object', properties: { query: { type: 'string' } } } }
const requestArb = fc.record({
  family: fc.constantFrom(...families),
  prompt: fc.constantFrom('say hi', 'use a tool please', 'call lookup now', 'héllo ✓ "quoted" \\ back'),
  tools: fc.boolean(),
  instructions: fc.option(fc.constantFrom('be brief', 'answer in French'), { nil: undefined }),
  maxOutput: fc.option(fc.integer({ min: 16, max: 512 }), { nil: undefined }),
})

describe('responses with tools over a socket and over HTTP', () => {
  it('the same events, every family', async () => {
    const key = 'sk-matrix'
    await fc.assert(fc.asyncProperty(fc.array(requestArb, { minLength: 1, maxLength: 3 }), async (requests) => {
      const bodies = requests.map(r => ({ model: familyModels[r.family], input: r.prompt, stream: true, ...(r.tools && { tools: [tool] }), ...(r.instructions && { instructions: r.instructions }), ...(r.maxOutput && { max_output_tokens: r.maxOutput }) }))
      const https = []
      for (const body of bodies) https.push(await overHttp(env.proxy.url, key, body))
      const wss = await inSession(socketSession(env.proxy.url, key), bodies)
      const envs = await inSession(envelopeSession(env.proxy.url, key), bodies)
      for (const [i, r] of requests.entries()) {
        expect(https[i]!.status, JSON.stringify(r)).toBe(200)
        expect(normalize(wss[i]!.events), `socket ${JSON.stringify(r)}`).toEqual(normalize(https[i]!.events))
        expect(normalize(envs[i]!.events), `/v1/ws ${JSON.stringify(r)}`).toEqual(normalize(https[i]!.events))
      }
    }), { numRuns: runs, endOnFailure: true })
  }, 20_000 + runs * 3_000)
})
