import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { startTestProxy } from '../helpers/proxy-server.ts'

/**
 * The messages and generateContent listings page as their vendors' do (`limit`/`after_id`/`before_id`,
 * `pageSize`/`pageToken`), so the official SDKs' auto-pagination walks a list longer than one page and
 * sees every model exactly once. The OpenAI list has no paging: one page, whatever the query says.
 */
const names = Array.from({ length: 57 }, (_, i) => `paged-model-${String(i).padStart(2, '0')}`)
let proxy: TestProxy
let all: string[]
beforeAll(async () => {
  proxy = await startTestProxy({
    'api-keys': ['k'],
    // Never called: the listing is the configuration's.
    'compat-provider': [{ name: 'paging', 'base-url': 'http://127.0.0.1:9/v1', 'api-key-entries': [{ 'api-key': 'upstream' }], models: names.map(name => ({ name: 'up', alias: name })) }],
  })
  const openai = await (await fetch(`${proxy.url}/v1/models?limit=5`, { headers: { authorization: 'Bearer k' } })).json() as { data: Array<{ id: string }> }
  all = openai.data.map(model => model.id)
})
afterAll(() => proxy?.close())

const messagesList = async (query: string) => {
  const response = await fetch(`${proxy.url}/v1/models${query}`, { headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' } })
  return { status: response.status, body: await response.json() }
}

describe('paged model listings', () => {
  it('the OpenAI list ignores paging parameters: every model on one page', () => {
    expect(all).toEqual(expect.arrayContaining(names))
    expect(all.length).toBeGreaterThan(50)
  })

  it('@anthropic-ai/sdk models.list iterates every model once, 20 a page by default', async () => {
    const sdk = new Anthropic({ baseURL: proxy.url, apiKey: 'k', maxRetries: 0 })
    const first = await sdk.models.list()
    expect(first.data).toHaveLength(20)
    expect(first.has_more).toBe(true)
    const listed: string[] = []
    for await (const model of sdk.models.list({ limit: 7 })) listed.push(model.id)
    expect(listed).toEqual(all)
  })

  it('messages: before_id pages backward, has_more in that direction; a bad limit is a 400 in the format', async () => {
    const last = await messagesList(`?limit=5&before_id=${all[12]}`)
    expect(last.body).toMatchObject({ has_more: true, first_id: all[7], last_id: all[11] })
    expect(last.body.data.map((model: { id: string }) => model.id)).toEqual(all.slice(7, 12))
    expect((await messagesList(`?limit=20&before_id=${all[3]}`)).body).toMatchObject({ has_more: false, first_id: all[0], last_id: all[2] })
    expect((await messagesList(`?limit=1000&after_id=${all.at(-1)}`)).body).toEqual({ data: [], has_more: false, first_id: null, last_id: null })
    for (const limit of ['0', '1001', 'x']) {
      const bad = await messagesList(`?limit=${limit}`)
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
    }
  })

  it('@google/genai models.list pages through every model once, by pageSize or 50 a page', async () => {
    const sdk = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: proxy.url } })
    for (const config of [{ pageSize: 10 }, {}]) {
      const pager = await sdk.models.list({ config })
      expect(pager.page).toHaveLength(config.pageSize ?? 50)
      const listed: string[] = []
      for await (const model of pager) listed.push(model.name!.replace(/^models\//, ''))
      expect(listed).toEqual(all)
    }
  })

  it('generateContent: the last page has no nextPageToken; a bad pageSize or token is INVALID_ARGUMENT', async () => {
    const get = async (query: string) => {
      const response = await fetch(`${proxy.url}/v1beta/models${query}`, { headers: { 'x-goog-api-key': 'k' } })
      return { status: response.status, body: await response.json() }
    }
    const first = await get('?pageSize=50')
    expect(first.body.models).toHaveLength(50)
    const rest = await get(`?pageSize=50&pageToken=${first.body.nextPageToken}`)
    expect(rest.body.models.map((model: { name: string }) => model.name)).toEqual(all.slice(50).map(id => `models/${id}`))
    expect(rest.body.nextPageToken).toBeUndefined()
    expect((await get('?pageSize=5000')).body.models).toHaveLength(all.length)
    for (const query of ['?pageSize=-1', '?pageToken=bm90LW91cnM']) {
      const bad = await get(query)
      expect(bad.status).toBe(400)
      expect(bad.body.error.status).toBe('INVALID_ARGUMENT')
    }
  })
})
