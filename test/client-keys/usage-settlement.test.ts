import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import type { LanguageModelUsage } from 'ai'
import type { TestProxy } from '../helpers/proxy-server.ts'
import type { OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { startSettlementRig, stopSettlementRig } from './settlement-rig.ts'
import { ask, settlementClients } from './settlement-clients.ts'
import { costOf, tokensOf, managementReader, settlementPrice } from './settlement-prices.ts'
import { scriptedUsage, type UsageFamily, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { awayFromMinuteEdge } from '../helpers/minute-edge.ts'

/**
 * Every answer is settled with the usage its upstream reported: same-format streams (bytes passed
 * through, read by the usage tap) and translated ones, streaming and not, through the real SDKs (the
 * vendors' and the Vercel `ai` SDK's). The
 * client key is charged exactly those tokens at their price (cache reads and writes at theirs), and
 * `/usage`, the key view, the flight recorder and the OTel spans show the same numbers; the session's
 * cache hit ratio is the scripted cache reads over the prompt.
 */
const secret = 'usage-admin'
const families: UsageFamily[] = ['compat', 'beta', 'gamma', 'alpha', 'delta']
const price = settlementPrice

/** Clients of a messages upstream that cuts its stream after the first text (same format, and translated). */
const cutClients = ['messages', 'chat'] as const
const cases = settlementClients.flatMap(client => families.flatMap(family => [false, true].map(stream => ({ client, family, stream, name: `${client}-${family}-${stream ? 'stream' : 'whole'}` }))))

let upstream: UsageUpstream
let receiver: OtlpReceiver
let proxy: TestProxy
let closed = false

beforeAll(async () => {
  ({ upstream, receiver, proxy } = await startSettlementRig(secret, url => ({
    'compat-provider': [{ name: 'scripted', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'up-compat', alias: 'm-compat' }] }],
    'gamma-api-key': [{ 'api-key': 'up', 'base-url': `${url}/v1`, models: [{ name: 'up-gamma', alias: 'm-gamma' }] }],
    'alpha-api-key': [{ 'api-key': 'up', 'base-url': url, models: [{ name: 'up-alpha', alias: 'm-alpha' }] }],
    'beta-api-key': [{ 'api-key': 'up', 'base-url': url, models: [{ name: 'up-beta', alias: 'm-beta' }, { name: 'up-beta-cut', alias: 'm-cut' }] }],
    'delta-api-key': [{ 'api-key': 'up', 'base-url': url, models: [{ name: 'up-delta', alias: 'm-delta' }] }],
    'model-prices': Object.fromEntries([...families.map(family => `m-${family}`), 'm-cut'].map(model => [model, price])),
    'client-keys': [...cases.map(({ name }) => ({ key: `ck-${name}`, name, tpm: 10_000_000, budget: { usd: 100, period: 'day' } })), ...cutClients.map(client => ({ key: `ck-cut-${client}`, name: `cut-${client}` }))],
  })))
})
afterAll(() => stopSettlementRig({ upstream, receiver, proxy }, closed))

const admin = managementReader(() => proxy.url, secret)
const minuteTokens = new Map<string, number>()

/** The key's tokens this minute, once its settlement is in (it lands just after the answer), or what it holds after 3 s. */
async function settledMinuteTokens(name: string, want: number): Promise<number> {
  const until = Date.now() + 3000
  for (;;) {
    const tokens = (await admin(`/client-keys/${name}`)).usage.minute.tokens as number
    if (tokens === want || Date.now() > until) return tokens
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}


describe('one settlement per request, from the usage the upstream reported', () => {
  it('every client format x family, streaming and not: charged exactly, and every view agrees', async () => {
    for (const { client, family, stream, name } of cases) {
      let seen: LanguageModelUsage | undefined
      await awayFromMinuteEdge()
      const text = await ask(client, { proxyUrl: proxy.url, model: `m-${family}`, stream, key: `ck-${name}`, session: `session-${name}`, onUsage: (usage) => { seen = usage } })
      expect(text, name).toBe('Hello from the scripted upstream.')
      // The Vercel SDK's caller is told the same usage the key is charged (cache writes where its format has them).
      if (client.startsWith('ai-')) {
        const want = scriptedUsage[family]
        expect({ input: seen?.inputTokens, output: seen?.outputTokens, cacheRead: seen?.inputTokenDetails.cacheReadTokens }, name).toEqual({ input: want.input, output: want.output, cacheRead: want.cacheRead })
        if (client === 'ai-messages') expect(seen?.inputTokenDetails.cacheWriteTokens ?? 0, name).toBe(want.cacheWrite)
      }
      // The tpm window is a minute: read it now (the 80 cases can take longer than a minute on a loaded machine).
      minuteTokens.set(name, await settledMinuteTokens(name, tokensOf(scriptedUsage[family])))
    }
    // A chat stream from a client that did not ask for usage: the upstream was asked for it.
    const chatStreams = upstream.requests.filter(r => r.url.endsWith('/chat/completions') && r.body.stream)
    expect(chatStreams.length).toBeGreaterThan(0)
    for (const request of chatStreams) expect(request.body.stream_options).toEqual({ include_usage: true })

    const { usage } = await admin('/usage')
    const { requests: recorded } = await admin('/requests?limit=200')
    for (const { family, name } of cases) {
      const want = scriptedUsage[family]
      const view = await admin(`/client-keys/${name}`)
      expect(minuteTokens.get(name), `${name}: tpm charged`).toBe(tokensOf(want))
      expect(view.usage.spent_usd.day, `${name}: budget charged`).toBeCloseTo(costOf(want), 9)
      expect(view.recent[0], name).toMatchObject({ inputTokens: want.input, outputTokens: want.output })
      expect(view.recent[0].estimated, `${name}: the key's recent requests say reported, not estimated`).toBeUndefined()
      const row = usage.by_client_key[name]
      expect(row, name).toMatchObject({ requests: 1, input_tokens: want.input, output_tokens: want.output, cached_tokens: want.cacheRead, reasoning_tokens: want.reasoning })
      expect(row.cost_usd, name).toBeCloseTo(costOf(want), 6)
      const record = recorded.find((item: { keyName?: string }) => item.keyName === name)
      expect(record?.usage, `${name}: recorder`).toMatchObject({ inputTokens: want.input, outputTokens: want.output })
      expect(record.usage.cachedInputTokens ?? 0, name).toBe(want.cacheRead)
      expect(record.usage.cacheCreationInputTokens ?? 0, name).toBe(want.cacheWrite)
      expect(record.usage.estimated, name).toBeUndefined()
      expect(record.cost, name).toBeCloseTo(costOf(want), 9)
    }
    // Sessions: each case was its own conversation; its cache hit ratio is the scripted reads over the prompt.
    const sessions = Object.values(usage.by_session) as Array<{ requests: number; cache_hit_ratio: number }>
    expect(sessions).toHaveLength(cases.length)
    for (const session of sessions) expect(session.cache_hit_ratio).toBe(0.6)

    // A stream cut after its first text (a clean close, no terminal event): the client is told it failed,
    // and the key is charged an estimate of what was delivered, never the reservation, labelled as one.
    for (const client of cutClients) {
      const key = `ck-cut-${client}`
      if (client === 'messages') {
        await awayFromMinuteEdge()
        const anthropic = new Anthropic({ baseURL: proxy.url, apiKey: key, maxRetries: 0 })
        await expect(anthropic.messages.stream({ model: 'm-cut', max_tokens: 16_000, messages: [{ role: 'user', content: 'hi' }] }).finalMessage()).rejects.toThrow(/stream/)
      } else {
        await awayFromMinuteEdge()
        const openai = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: key, maxRetries: 0 })
        await expect((async () => { for await (const _ of await openai.chat.completions.create({ model: 'm-cut', stream: true, max_tokens: 16_000, messages: [{ role: 'user', content: 'hi' }] })); })()).rejects.toThrow(/stream/)
      }
      const view = await admin(`/client-keys/cut-${client}`)
      expect(view.usage.minute.tokens, `cut ${client}`).toBeGreaterThanOrEqual(scriptedUsage.beta.input)
      // The prompt as the upstream reported it before the cut, and about what was delivered: far from max_tokens.
      expect(view.usage.minute.tokens, `cut ${client}: never the reservation`).toBeLessThan(1100)
      // The key's recent requests label it as /usage does.
      expect(view.recent[0], `cut ${client}`).toMatchObject({ estimated: true, inputTokens: scriptedUsage.beta.input })
      expect(view.recent[0].inputTokens + view.recent[0].outputTokens, `cut ${client}`).toBe(view.usage.minute.tokens)
    }
    const after = (await admin('/usage')).usage
    for (const client of cutClients) expect(after.by_client_key[`cut-${client}`], `cut ${client}`).toMatchObject({ requests: 1, failure: 1, estimated_requests: 1 })
    const { requests: cutRecords } = await admin('/requests?limit=200')
    for (const client of cutClients) {
      const record = cutRecords.find((item: { keyName?: string }) => item.keyName === `cut-${client}`)
      expect(record.usage.estimated, `cut ${client}`).toBe(true)
      expect(record.error, `cut ${client}`).toMatch(/before its last event/)
    }

    // The spans say the same, to the token.
    closed = true
    await proxy.close()
    const servers = receiver.spans.filter(span => span.kind === 2 && span.attributes['gen_ai.request.model'] !== 'm-cut')
    expect(servers).toHaveLength(cases.length)
    for (const cut of receiver.spans.filter(span => span.kind === 2 && span.attributes['gen_ai.request.model'] === 'm-cut')) expect(cut.attributes['proxy.usage.estimated']).toBe(true)
    for (const span of servers) {
      const family = String(span.attributes['gen_ai.request.model']).slice(2) as UsageFamily
      const want = scriptedUsage[family]
      expect(span.attributes['gen_ai.usage.input_tokens'], span.name).toBe(want.input)
      expect(span.attributes['gen_ai.usage.output_tokens'], span.name).toBe(want.output)
      expect(span.attributes['gen_ai.usage.cache_read.input_tokens'] ?? 0, span.name).toBe(want.cacheRead)
      expect(span.attributes['gen_ai.usage.cache_creation.input_tokens'] ?? 0, span.name).toBe(want.cacheWrite)
    }
  }, 120_000)
})
