import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { turnCache } from '../../core/json/turn-cache.ts'
import { familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * The JSON layer's caches switched off (a budget of 0) and on: a recorded Claude Code session (a first
 * request, the same again, two next turns) gives the client the same answers (status, body, usage) and
 * the upstream the same bytes either way. The flight recorder records the bytes the body handle sent,
 * so what it records is the same too.
 */
const fixture = JSON.parse(readFileSync(new URL('../fixtures/clients/claude-code-tool-result.json', import.meta.url), 'utf8')) as { body: Record<string, unknown> }
const families = ['compat', 'gamma', 'alpha', 'beta'] as const
const said = (word: string) => ({ role: 'user', content: [{ type: 'text', text: `and now the ${word} — café ✓, please: ${'make "them" pass\n'.repeat(40)}` }] })
const session = (model: string, stream: boolean) => [[], [], [said('tests')], [said('tests'), said('docs')]]
  .map(extra => ({ ...fixture.body, model, stream, messages: [...fixture.body.messages as unknown[], ...extra] }))

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy({ keys: ['sk-cache-on', 'sk-cache-off'] }) })
afterAll(async () => {
  turnCache.setBudget(24 * 1024 * 1024)
  await setup.close()
})

interface Seen { status: number; answer: string; upstream: string }

async function run(family: typeof families[number], key: string, stream: boolean): Promise<Seen[]> {
  const seen: Seen[] = []
  for (const body of session(familyModels[family], stream)) {
    const response = await fetch(`${setup.proxy.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) })
    // Ids, timestamps and signatures a mock or a codec makes up differ between any two requests: left out.
    const answer = (await response.text()).replace(/"(id|created|created_at|signature)":\s*("[^"]*"|\d+)/g, '"$1":_').replace(/(msg|call|toolu|chatcmpl|resp)_[A-Za-z0-9]+/g, '$1_')
    seen.push({ status: response.status, answer, upstream: setup.upstreams[family].requests.at(-1)!.body })
  }
  return seen
}

describe.each(families)('%s upstream', (family) => {
  it.each([false, true])('stream %s: the same with the caches on and off', async (stream) => {
    turnCache.setBudget(24 * 1024 * 1024)
    const on = await run(family, 'sk-cache-on', stream)
    turnCache.setBudget(0)
    const off = await run(family, 'sk-cache-off', stream)
    turnCache.setBudget(24 * 1024 * 1024)
    expect(on.map(each => each.status)).toEqual([200, 200, 200, 200])
    expect(off).toEqual(on)
  })
})
