import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { scriptedUsage, type UsageFamily, type UsageUpstream } from '../helpers/usage-upstream.ts'
import type { ClientFormat } from '../helpers/client-formats.ts'
import { leaveAt } from '../helpers/leave-at.ts'
import { eventually } from '../recorder/helpers.ts'
import { awayFromMinuteEdge } from '../helpers/minute-edge.ts'
import type { OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { startSettlementRig, stopSettlementRig } from './settlement-rig.ts'
import { costOf, managementReader, recordReader, settlementPrice } from './settlement-prices.ts'

/**
 * A client that leaves as soon as it has read its stream's terminal event (an agent that stops reading
 * at `message_stop`): the answer was whole and the upstream reported its usage, so the request is a
 * success charged that usage, whether the proxy saw the upstream end before the client left or after
 * (`-hold` models: the upstream keeps the connection open a while after its last event), on the
 * same-format path and the translated one alike.
 */
const secret = 'left-after-end-admin'
/** What each client format reads as the end of its answer. */
const terminal: Partial<Record<ClientFormat, string>> = { messages: 'message_stop', chat: '"finish_reason":"stop"', responses: 'response.completed', 'generate-sse': '"finishReason":"STOP"' }
const routes: Array<[ClientFormat, UsageFamily]> = [
  ['messages', 'beta'], ['chat', 'compat'], ['responses', 'gamma'], ['generate-sse', 'alpha'],
  ['messages', 'compat'], ['chat', 'beta'], ['responses', 'beta'], ['generate-sse', 'gamma'],
]
const cases = routes.flatMap(([client, family]) => [true, false].map(hold => ({ client, family, hold, name: `${client}-${family}${hold ? '-hold' : ''}` })))

let rig: { upstream: UsageUpstream; receiver: OtlpReceiver; proxy: TestProxy }
beforeAll(async () => {
  const models = (family: UsageFamily) => [{ name: `up-${family}`, alias: `m-${family}` }, { name: `up-${family}-hold`, alias: `m-${family}-hold` }]
  rig = await startSettlementRig(secret, url => ({
    'compat-provider': [{ name: 'scripted', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: models('compat') }],
    'gamma-api-key': [{ 'api-key': 'up', 'base-url': `${url}/v1`, models: models('gamma') }],
    'alpha-api-key': [{ 'api-key': 'up', 'base-url': url, models: models('alpha') }],
    'beta-api-key': [{ 'api-key': 'up', 'base-url': url, models: models('beta') }],
    'model-prices': Object.fromEntries(['compat', 'gamma', 'alpha', 'beta'].flatMap(family => [`m-${family}`, `m-${family}-hold`]).map(model => [model, settlementPrice])),
    'client-keys': cases.map(({ name }) => ({ key: `ck-${name}`, name, tpm: 10_000_000, budget: { usd: 100, period: 'day' } })),
  }))
})
afterAll(() => stopSettlementRig(rig, false))

const admin = managementReader(() => rig.proxy.url, secret)
const recordOf = recordReader(() => rig.proxy.url, secret)

describe('a client that leaves right after its terminal event', () => {
  it.each(cases)('$name: a success, charged the upstream\'s usage, in every view', async ({ client, family, hold, name }) => {
    await awayFromMinuteEdge()
    const id = await leaveAt(rig.proxy.url, client, `m-${family}${hold ? '-hold' : ''}`, `ck-${name}`, terminal[client]!)
    const want = scriptedUsage[family]
    const view = await eventually(async () => { const view = await admin(`/client-keys/${name}`); return view.recent.length ? view : undefined })
    expect(view.recent[0], name).toMatchObject({ status: 200, inputTokens: want.input, outputTokens: want.output })
    expect(view.recent[0].estimated, name).toBeUndefined()
    expect(view.usage.reserved_usd, name).toBe(0)
    expect(view.usage.spent_usd.day, name).toBeCloseTo(costOf(want), 9)
    const record = await recordOf(id)
    expect({ status: record.status, error: record.error, estimated: record.usage?.estimated }, name).toEqual({ status: 200, error: undefined, estimated: undefined })
    expect(record.usage, name).toMatchObject({ inputTokens: want.input, outputTokens: want.output })
    expect(record.cost, name).toBeCloseTo(costOf(want), 9)
    const row = (await admin('/usage')).usage.by_client_key[name]
    expect(row, name).toMatchObject({ requests: 1, success: 1, failure: 0, estimated_requests: 0 })
  })
})
