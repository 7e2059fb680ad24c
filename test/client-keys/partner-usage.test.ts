import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestProxy } from '../helpers/proxy-server.ts'
import type { OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { startSettlementRig, stopSettlementRig } from './settlement-rig.ts'
import { costOf, managementReader, settlementPrice } from './settlement-prices.ts'
import { scriptedUsage, type UsageFamily, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { ask, type SettlementClient } from './settlement-clients.ts'
import { eventually } from '../recorder/helpers.ts'

/**
 * The partner integration's provider routes (`/api/provider/{compat,beta,alpha}/...`) serve models
 * like the ordinary endpoints: a named key is charged exactly the usage the upstream reported, on its own
 * family and translated, streaming and not, and /usage, the recorder and the spans agree.
 */
const secret = 'partner-usage-admin'
const price = settlementPrice
const segments: Array<{ segment: string; client: SettlementClient; families: UsageFamily[] }> = [
  { segment: 'compat', client: 'chat', families: ['compat', 'beta'] },
  { segment: 'beta', client: 'messages', families: ['beta', 'alpha'] },
  { segment: 'alpha', client: 'generate', families: ['alpha', 'compat'] },
]
const cases = segments.flatMap(({ segment, client, families }) => families.flatMap(family => [false, true].map(stream => ({ segment, client, family, stream, name: `p-${segment}-${family}-${stream ? 'stream' : 'whole'}` }))))

let upstream: UsageUpstream
let receiver: OtlpReceiver
let proxy: TestProxy
let closed = false

beforeAll(async () => {
  ({ upstream, receiver, proxy } = await startSettlementRig(secret, url => ({
    partner: { 'upstream-url': url, 'upstream-api-key': 'pk' },
    'compat-provider': [{ name: 'scripted', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'up-compat', alias: 'm-compat' }] }],
    'alpha-api-key': [{ 'api-key': 'up', 'base-url': url, models: [{ name: 'up-alpha', alias: 'm-alpha' }] }],
    'beta-api-key': [{ 'api-key': 'up', 'base-url': url, models: [{ name: 'up-beta', alias: 'm-beta' }] }],
    'model-prices': Object.fromEntries(['compat', 'beta', 'alpha'].map(family => [`m-${family}`, price])),
    'client-keys': cases.map(({ name }) => ({ key: `ck-${name}`, name, tpm: 10_000_000, budget: { usd: 100, period: 'day' } })),
  })))
})
afterAll(() => stopSettlementRig({ upstream, receiver, proxy }, closed))

const admin = managementReader(() => proxy.url, secret)

describe('partner provider routes settle like the ordinary endpoints', () => {
  it('each segment, its own family and a translated one, streaming and not', async () => {
    // tpm counts in fixed one-minute windows: each key's window is read right after its request, and a
    // request that met a window's turn is charged in one of the two (the new one then shows 0 or all).
    const minuteTokens = new Map<string, { tokens: number; turned: boolean }>()
    for (const { segment, client, family, stream, name } of cases) {
      const window = Math.floor(Date.now() / 60_000)
      const text = await ask(client, { proxyUrl: `${proxy.url}/api/provider/${segment}`, model: `m-${family}`, stream, key: `ck-${name}`, session: `session-${name}` })
      expect(text, name).toBe('Hello from the scripted upstream.')
      const turned = () => Math.floor(Date.now() / 60_000) !== window
      const view = await eventually(async () => {
        const view = await admin(`/client-keys/${name}`)
        return view.recent.length && (view.usage.minute.tokens > 0 || turned()) ? view : undefined
      })
      minuteTokens.set(name, { tokens: view.usage.minute.tokens, turned: turned() })
    }
    const { usage } = await admin('/usage')
    const { requests: recorded } = await admin('/requests?limit=200')
    for (const { family, name } of cases) {
      const want = scriptedUsage[family]
      const view = await admin(`/client-keys/${name}`)
      const minute = minuteTokens.get(name)!
      if (minute.turned) expect([0, want.input + want.output], `${name}: tpm charged`).toContain(minute.tokens)
      else expect(minute.tokens, `${name}: tpm charged`).toBe(want.input + want.output)
      expect(view.usage.spent_usd.day, `${name}: budget charged`).toBeCloseTo(costOf(want), 9)
      expect(view.recent, name).toHaveLength(1)
      expect(usage.by_client_key[name], name).toMatchObject({ requests: 1, input_tokens: want.input, output_tokens: want.output, cached_tokens: want.cacheRead })
      const record = recorded.find((item: { keyName?: string }) => item.keyName === name)
      expect(record?.usage, `${name}: recorder`).toMatchObject({ inputTokens: want.input, outputTokens: want.output })
      expect(record.usage.estimated, name).toBeUndefined()
    }
    closed = true
    await proxy.close()
    const servers = receiver.spans.filter(span => span.kind === 2)
    expect(servers).toHaveLength(cases.length)
    for (const span of servers) {
      const want = scriptedUsage[String(span.attributes['gen_ai.request.model']).slice(2) as UsageFamily]
      expect([span.attributes['gen_ai.usage.input_tokens'], span.attributes['gen_ai.usage.output_tokens']], span.name).toEqual([want.input, want.output])
    }
  }, 120_000)
})
