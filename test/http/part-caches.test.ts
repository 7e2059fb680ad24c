import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * The last-turn cache through HTTP (core/json/turn-cache.ts), both its sides: a recorded Claude
 * Code request sent again, and then as its next turn, reaches each upstream exactly as it does for a
 * client key the caches have never seen (whose request is parsed and written from scratch).
 */
const fixture = JSON.parse(readFileSync(new URL('../fixtures/clients/claude-code-tool-result.json', import.meta.url), 'utf8')) as { headers: Record<string, string>; body: Record<string, unknown> }
const families = ['compat', 'gamma', 'alpha', 'beta'] as const
const fresh = (family: string) => `sk-fresh-${family}`

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy({ keys: [...families.map(fresh), ...families.map(family => `sk-history-${family}`)] }) })
afterAll(() => setup.close())

const turn = (model: string, extra: unknown[] = []) => ({ ...fixture.body, model, stream: false, messages: [...fixture.body.messages as unknown[], ...extra] })
const said = (word: string) => ({ role: 'user', content: [{ type: 'text', text: `and now the ${word} too, please: ${'make them pass '.repeat(40)}` }] })
const nextMessage = said('tests')

async function upstreamBody(family: typeof families[number], key: string, body: unknown): Promise<string> {
  const response = await fetch(`${setup.proxy.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) })
  expect(response.status, await response.clone().text()).toBe(200)
  await response.text()
  return setup.upstreams[family].requests.at(-1)!.body
}

it('/metrics counts the lookups of both caches and the bytes they hold', async () => {
  // A body over 32 KB is parsed by parts (smaller ones are parsed whole, without the cache).
  const large = turn(familyModels.compat, [said(`metrics ${'and more '.repeat(4000)}`)])
  await upstreamBody('compat', clientKey, large)
  await upstreamBody('compat', clientKey, large)
  const text = await (await fetch(`${setup.proxy.url}/metrics`)).text()
  // `name{labels} value`, the labels written as given.
  const value = (series: string) => Number(text.split('\n').find(line => line.startsWith(`${series} `))?.split(' ')[1])
  for (const cache of ['parse', 'write']) {
    expect(value(`proxy_part_cache_lookups_total{cache="${cache}",result="hit"}`)).toBeGreaterThan(0)
    expect(value(`proxy_part_cache_bytes{cache="${cache}"}`)).toBeGreaterThan(0)
  }
})

describe.each(families)('%s upstream', (family) => {
  it('the same turn again, and the next turn, go upstream as they do for a client key the caches never saw', async () => {
    const model = familyModels[family]
    const first = await upstreamBody(family, clientKey, turn(model))
    expect(await upstreamBody(family, clientKey, turn(model))).toBe(first)
    const next = await upstreamBody(family, clientKey, turn(model, [nextMessage]))
    expect(next).toBe(await upstreamBody(family, fresh(family), turn(model, [nextMessage])))
    expect(next.length).toBeGreaterThan(first.length)
    // Another next turn whose new message has the same length as the last one's and other words.
    const other = await upstreamBody(family, clientKey, turn(model, [said('specs')]))
    expect(other).toBe(await upstreamBody(family, fresh(family), turn(model, [said('specs')])))
    expect(other).toContain('the specs too')
  })
})

describe('a long history, a turn at a time', () => {
  const filler = (i: number) => `line ${i}: const value = await request(path) // why ${'x'.repeat(i % 7)}\n`.repeat(40)
  const history = Array.from({ length: 24 }, (_, i) => {
    const id = `toolu_hist${String(i).padStart(6, '0')}`
    return [
      { role: 'assistant', content: [{ type: 'text', text: `reading file ${i}` }, { type: 'tool_use', id, name: 'Read', input: { file_path: `/src/file-${i}.ts` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: filler(i) }] },
    ]
  }).flat()
  const long = (model: string, extra: unknown[] = []) => turn(model, [...history, ...extra])

  it.each(families)('%s: each next turn goes upstream as for a fresh client key; a turn naming another model goes where that model is served', async (family) => {
    const model = familyModels[family]
    const key = `sk-history-${family}`
    expect(JSON.stringify(long(model)).length).toBeGreaterThan(64 * 1024)
    await upstreamBody(family, key, long(model))
    for (const word of ['tests', 'docs', 'bench']) {
      const next = await upstreamBody(family, key, long(model, [said(word)]))
      expect(next).toBe(await upstreamBody(family, fresh(family), long(model, [said(word)])))
      expect(next).toContain(`the ${word} too`)
    }
    // The same history under another family's model: the model is outside the list, so the body is scanned whole.
    const other = families[(families.indexOf(family) + 1) % families.length]!
    const moved = await upstreamBody(other, key, long(familyModels[other], [said('move')]))
    expect(moved).toBe(await upstreamBody(other, fresh(other), long(familyModels[other], [said('move')])))
  })
})
