import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/** The token-count endpoints answer without routing, and still hold a key to its models, in their own formats. */
let proxy: TestProxy

beforeAll(async () => {
  proxy = await startTestProxy({
    'beta-api-key': [{ 'api-key': 'up', 'base-url': 'http://127.0.0.1:9', models: [{ name: 'up-small', alias: 'small' }, { name: 'up-big', alias: 'big' }] }],
    'client-keys': [{ name: 'alice', key: 'alice-key', models: ['small'] }, { name: 'bob', key: 'bob-key' }],
  })
})

afterAll(() => proxy?.close())

const countMessages = (key: string, model: string) => fetch(`${proxy.url}/v1/messages/count_tokens`, {
  method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' },
  body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }] }),
})
const countGenerate = (key: string, model: string) => fetch(`${proxy.url}/v1beta/models/${model}:countTokens`, {
  method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
  body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello there' }] }] }),
})

const countResponses = (key: string, body: Record<string, unknown>) => fetch(`${proxy.url}/v1/responses/input_tokens`, {
  method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ input: 'hello there', ...body }),
})

describe('token counts and a key\'s models', () => {
  it('a model the key may use is counted; another is its 403 in the messages format', async () => {
    expect((await countMessages('alice-key', 'small')).status).toBe(200)
    const refused = await countMessages('alice-key', 'big')
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'permission_error', message: expect.stringContaining('"big"') } })
    expect((await countMessages('bob-key', 'big')).status).toBe(200)
  })

  it('the same for generateContent countTokens, in its format', async () => {
    expect((await countGenerate('alice-key', 'small')).status).toBe(200)
    const refused = await countGenerate('alice-key', 'big')
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } })
  })

  it('the same for responses input_tokens, in its format; a count that names no model is no model use', async () => {
    expect(await (await countResponses('alice-key', { model: 'small' })).json()).toMatchObject({ object: 'response.input_tokens', input_tokens: expect.any(Number) })
    const refused = await countResponses('alice-key', { model: 'big' })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: { type: 'permission_error', message: expect.stringContaining('"big"') } })
    expect((await countResponses('alice-key', {})).status).toBe(200)
  })
})
