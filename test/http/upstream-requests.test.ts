import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy, type Family } from '../helpers/family-proxy.ts'

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())

/** For each family: the exact upstream URL, auth headers and body shape an API key produces. */
const expectations: Record<Family, { url: (stream: boolean) => string; auth: Record<string, string>; absent: string[]; body: (body: any) => void }> = {
  compat: { url: () => '/v1/chat/completions', auth: { authorization: 'Bearer up-compat' }, absent: ['x-api-key', 'x-goog-api-key'], body: b => expect(b).toMatchObject({ model: 'mock-gpt', messages: [{ role: 'user', content: 'exact' }] }) },
  beta: { url: () => '/v1/messages', auth: { 'x-api-key': 'up-beta', 'anthropic-version': '2023-06-01' }, absent: ['authorization', 'x-goog-api-key'], body: b => expect(b).toMatchObject({ model: 'mock-claude', max_tokens: 8192, messages: [{ role: 'user', content: [{ type: 'text', text: 'exact' }] }] }) },
  gamma: { url: () => '/v1/responses', auth: { authorization: 'Bearer up-gamma' }, absent: ['x-api-key', 'x-goog-api-key'], body: b => expect(b).toMatchObject({ model: 'mock-codex', input: [expect.objectContaining({ role: 'user' })] }) },
  alpha: { url: stream => stream ? '/v1beta/models/mock-gemini:streamGenerateContent?alt=sse' : '/v1beta/models/mock-gemini:generateContent', auth: { 'x-goog-api-key': 'up-alpha' }, absent: ['authorization', 'x-api-key'], body: b => { expect(b).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'exact' }] }] }); expect(b.model).toBeUndefined() } },
  delta: { url: stream => stream ? '/v1/publishers/google/models/mock-gemini:streamGenerateContent?alt=sse' : '/v1/publishers/google/models/mock-gemini:generateContent', auth: { 'x-goog-api-key': 'up-delta' }, absent: ['authorization', 'x-api-key'], body: b => { expect(b).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'exact' }] }] }); expect(b.model).toBeUndefined() } },
}

describe.each(Object.keys(expectations) as Family[])('%s upstream request', (family) => {
  it.each([false, true])('stream %s: URL, auth headers and body are exact; the client key never travels', async (stream) => {
    const response = await fetch(`${setup.proxy.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json', 'x-api-key': clientKey },
      body: JSON.stringify({ model: familyModels[family], stream, messages: [{ role: 'user', content: 'exact' }] }),
    })
    await response.text()
    const sent = setup.upstreams[family].requests.at(-1)!
    const expected = expectations[family]
    expect(sent.url).toBe(expected.url(stream))
    for (const [name, value] of Object.entries(expected.auth)) expect(sent.headers[name]).toBe(value)
    for (const name of expected.absent) expect(sent.headers[name]).toBeUndefined()
    expected.body(JSON.parse(sent.body))
    expect(JSON.stringify(sent.headers) + sent.body).not.toContain(clientKey)
  })
})
