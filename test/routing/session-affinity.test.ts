import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { startCachingUpstream, type CachingUpstream } from '../helpers/caching-upstream.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

let upstream: CachingUpstream
let failing = new Set<string>()
const proxies: TestProxy[] = []
const upstreamKeys = ['k1', 'k2', 'k3', 'k4']

beforeAll(async () => {
  upstream = await startCachingUpstream()
  const handler = upstream.handler
  upstream.handler = request => failing.has(request.headers.get('x-api-key') ?? '')
    ? new Response(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'rate limited' } }), { status: 429, headers: { 'retry-after': '600' } })
    : handler(request)
})
afterEach(async () => {
  failing = new Set()
  await Promise.all(proxies.splice(0).map(proxy => proxy.close()))
})
afterAll(() => upstream.close())

const secret = 'mgmt-secret'
async function proxyWith(routing: Record<string, unknown>, storage?: Awaited<ReturnType<typeof createProxyStorage>>) {
  const proxy = await startTestProxy({
    'api-keys': ['client'],
    'usage-statistics-enabled': true,
    'remote-management': { 'secret-key': secret },
    routing,
    'beta-api-key': upstreamKeys.map(key => ({ 'api-key': key, 'base-url': upstream.url, models: [{ name: 'up-claude', alias: 'claude' }] })),
  }, [], storage)
  proxies.push(proxy)
  return proxy
}

const usage = async (proxy: TestProxy) => (await (await fetch(`${proxy.url}/v0/management/usage`, { headers: { authorization: `Bearer ${secret}` } })).json()).usage

/** A long, conversation-specific system prompt (new for every run: the upstream's caches outlive a proxy): the part a prompt cache saves. */
const systemOf = (conversation: number) => `You are agent ${conversation} of run ${Math.random()}. ${'Project rules and tool docs. '.repeat(400)}`

/**
 * Five agent conversations of four turns each, interleaved as concurrent agents send them, through the
 * Anthropic SDK (Claude Code's session header when `signal`), each turn to `proxies[turn % n]`.
 * Returns the upstream key of every turn, per conversation.
 */
async function converse(targets: TestProxy[], signal: boolean, conversations = 5, turns = 4): Promise<string[][]> {
  const sdks = Array.from({ length: conversations }, (_, c) => targets.map(proxy => new Anthropic({
    baseURL: proxy.url, apiKey: 'client', maxRetries: 0, defaultHeaders: signal ? { 'x-claude-code-session-id': `session-${c}-${Math.random()}` } : {},
  })))
  const history: Anthropic.MessageParam[][] = Array.from({ length: conversations }, () => [])
  const systems = history.map((_, c) => systemOf(c))
  const keys: string[][] = Array.from({ length: conversations }, () => [])
  for (let turn = 0; turn < turns; turn++) {
    for (let c = 0; c < conversations; c++) {
      history[c]!.push({ role: 'user', content: `turn ${turn}: edit file ${c}-${turn}.ts` })
      const reply = await sdks[c]![turn % targets.length]!.messages.create({ model: 'claude', max_tokens: 200, system: systems[c], messages: history[c]! })
      history[c]!.push({ role: 'assistant', content: (reply.content[0] as Anthropic.TextBlock).text })
      keys[c]!.push(upstream.keys.at(-1)!)
    }
  }
  return keys
}

describe('sticky sessions keep the upstream prompt cache warm', () => {
  it('round-robin scatters a conversation over accounts; session-affinity keeps it on one, and the cache hit ratio goes to near 1', async () => {
    const roundRobin = await proxyWith({ 'session-affinity': 'off' })
    const scattered = await converse([roundRobin], true)
    for (const keys of scattered) expect(new Set(keys).size).toBeGreaterThan(1)
    const before = (await usage(roundRobin)).cache_hit_ratio

    const sticky = await proxyWith({})
    const kept = await converse([sticky], true)
    for (const keys of kept) expect(new Set(keys).size).toBe(1)
    // New conversations are still spread over the accounts (the share bound / round-robin placement).
    expect(new Set(kept.map(keys => keys[0])).size).toBeGreaterThanOrEqual(3)
    const after = await usage(sticky)
    // Turn 1 of each conversation cannot hit a cache: 3 of 4 turns can, each almost wholly.
    expect(before).toBeLessThan(0.2)
    expect(after.cache_hit_ratio).toBeGreaterThan(0.7)
    // Past the first turn (export: one record per request), near 1.
    const records = (await (await fetch(`${sticky.url}/v0/management/usage/export`, { headers: { authorization: `Bearer ${secret}` } })).json()).records as Array<{ time: number; session: string; inputTokens: number; cachedTokens: number }>
    const firsts = new Set<string>()
    let input = 0
    let cached = 0
    for (const record of records.sort((a, b) => a.time - b.time)) {
      if (!firsts.has(record.session)) { firsts.add(record.session); continue }
      input += record.inputTokens
      cached += record.cachedTokens
    }
    expect(cached / input).toBeGreaterThan(0.95)
    for (const session of Object.values(after.by_session) as Array<{ requests: number; cache_hit_ratio: number }>) {
      expect(session.requests).toBe(4)
      expect(session.cache_hit_ratio).toBeGreaterThan(0.7)
    }
    expect(Object.keys(after.by_session)).toHaveLength(5)
    for (const credential of Object.values(after.by_credential) as Array<{ cache_hit_ratio: number }>) expect(credential.cache_hit_ratio).toBeGreaterThan(0.5)
    console.info(`cache hit ratio: round-robin ${before}, session-affinity ${after.cache_hit_ratio} (after the first turn ${(cached / input).toFixed(3)})`)
  }, 60_000)

  it('without a session signal, a multi-turn conversation is keyed by its stable prefix (OpenAI SDK, translated to messages)', async () => {
    const proxy = await proxyWith({})
    const sdk = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'client', maxRetries: 0 })
    const runs: string[][] = [[], []]
    const history: OpenAI.ChatCompletionMessageParam[][] = [0, 1].map(c => [{ role: 'system', content: systemOf(10 + c) }])
    for (let turn = 0; turn < 5; turn++) {
      for (const c of [0, 1]) {
        history[c]!.push({ role: 'user', content: `turn ${turn}` })
        const reply = await sdk.chat.completions.create({ model: 'claude', messages: history[c]! })
        history[c]!.push({ role: 'assistant', content: reply.choices[0]!.message.content! })
        runs[c]!.push(upstream.keys.at(-1)!)
      }
    }
    // Turn 1 has no session (single turn: the strategy's order); from turn 2 on the conversation stays put.
    for (const keys of runs) expect(new Set(keys.slice(1)).size).toBe(1)
    const chat = await usage(proxy)
    expect(Object.keys(chat.by_session)).toHaveLength(2)
  })

  it('a session moves when its credential cools down, and stays on the new one', async () => {
    const proxy = await proxyWith({})
    const sdk = new Anthropic({ baseURL: proxy.url, apiKey: 'client', maxRetries: 0, defaultHeaders: { 'x-claude-code-session-id': 'moving' } })
    const messages: Anthropic.MessageParam[] = []
    const system = systemOf(20)
    const ask = async () => {
      messages.push({ role: 'user', content: `turn ${messages.length}` })
      const reply = await sdk.messages.create({ model: 'claude', max_tokens: 50, system, messages })
      messages.push({ role: 'assistant', content: (reply.content[0] as Anthropic.TextBlock).text })
      return upstream.keys.at(-1)!
    }
    const first = await ask()
    expect(await ask()).toBe(first)
    failing.add(first)
    const moved = await ask()
    expect(moved).not.toBe(first)
    failing.clear()
    // The cooled-down credential is ready again only after its Retry-After; the session keeps its new home anyway.
    expect(await ask()).toBe(moved)
  })

  it('strict waits for a briefly cooling credential instead of moving', async () => {
    const proxy = await proxyWith({ 'session-affinity': 'strict' })
    const sdk = new Anthropic({ baseURL: proxy.url, apiKey: 'client', maxRetries: 0, defaultHeaders: { 'x-claude-code-session-id': 'strict' } })
    const first = await sdk.messages.create({ model: 'claude', max_tokens: 50, messages: [{ role: 'user', content: 'one' }] })
    const home = upstream.keys.at(-1)!
    expect(first.content[0]).toMatchObject({ type: 'text' })
    // One quota error with Retry-After 1 s: strict waits the second out on the same account.
    let once = true
    const handler = upstream.handler
    upstream.handler = (request) => {
      if (once && request.headers.get('x-api-key') === home) {
        once = false
        return new Response(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'rate limited' } }), { status: 429, headers: { 'retry-after': '1' } })
      }
      return handler(request)
    }
    try {
      await sdk.messages.create({ model: 'claude', max_tokens: 50, messages: [{ role: 'user', content: 'two' }] })
      expect(upstream.keys.slice(-2)).toEqual([home, home])
    } finally {
      upstream.handler = handler
    }
  })
})

describe('sticky sessions across two instances on one Redis', () => {
  const base = `proxy-test-affinity-${process.pid}-${Date.now()}`
  afterAll(async () => {
    const cleanup = await createProxyStorage({ driver: 'redis', base })
    for (const key of await cleanup.getKeys()) await cleanup.removeItem(key)
    await cleanup.dispose()
  })

  it('turns alternating between instances stay on one credential', async () => {
    const one = await proxyWith({}, await createProxyStorage({ driver: 'redis', base }))
    const two = await proxyWith({}, await createProxyStorage({ driver: 'redis', base }))
    const kept = await converse([one, two], true, 3, 4)
    for (const keys of kept) expect(new Set(keys).size).toBe(1)
  }, 60_000)
})
