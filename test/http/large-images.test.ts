import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * A screenshot-sized image through HTTP, from a messages client (base64 in the block) and from a chat
 * client (a data URL), to every family: each upstream gets valid JSON holding exactly the client's
 * base64, written from the client's own bytes (the client spells `/` as `\/` here, which only a copy
 * keeps). Data URLs are joined and cut without building the strings whole (core/json/derived-strings.ts).
 */
// Each test its own image: an equal one sent before would be copied from the last-turn cache instead.
const image = (seed: string) => { const base64 = `${seed}iVBORw0KGgo/AAAA+`.repeat(4000); return { base64, spelled: base64.replaceAll('/', '\\/') } }
const upstreamsOf = ['compat', 'gamma', 'alpha', 'beta'] as const

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())

async function send(path: string, headers: Record<string, string>, json: string, family: typeof upstreamsOf[number]): Promise<string> {
  const before = setup.upstreams[family].requests.length
  const response = await fetch(`${setup.proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: json })
  expect(response.status, await response.clone().text()).toBe(200)
  await response.text()
  // This request's body, not an earlier one's.
  expect(setup.upstreams[family].requests.length).toBe(before + 1)
  return setup.upstreams[family].requests.at(-1)!.body
}

describe.each(upstreamsOf)('to a %s upstream', (family) => {
  it('a messages client\'s base64 image', async () => {
    const { base64, spelled } = image(`M${family.slice(0, 3)}`)
    const json = `{"model":"${familyModels[family]}","max_tokens":50,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${spelled}"}},{"type":"text","text":"what is on the screen?"}]}]}`
    const body = await send('/v1/messages', { 'x-api-key': clientKey, 'anthropic-version': '2023-06-01' }, json, family)
    expect(JSON.stringify(JSON.parse(body))).toContain(base64)
    expect(body).toContain(spelled)
  })

  it('a chat client\'s data URL image', async () => {
    const { base64, spelled } = image(`C${family.slice(0, 3)}`)
    const json = `{"model":"${familyModels[family]}","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,${spelled}"}},{"type":"text","text":"what is on the screen?"}]}]}`
    const body = await send('/v1/chat/completions', { authorization: `Bearer ${clientKey}` }, json, family)
    expect(JSON.stringify(JSON.parse(body))).toContain(base64)
    expect(body).toContain(spelled)
  })
})
