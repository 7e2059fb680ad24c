import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { scriptedUsage, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { clientCall, clientHeaders, streamCompleted, streamErrorEnding, type ClientFormat } from '../helpers/client-formats.ts'
import type { OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { leaveAt } from '../helpers/leave-at.ts'
import { eventually } from '../recorder/helpers.ts'
import { startSettlementRig, stopSettlementRig } from './settlement-rig.ts'
import { managementReader, recordReader, settlementPrice } from './settlement-prices.ts'

/**
 * A messages upstream's stream that breaks, on the path agents take (the client's own format) and on
 * the translated ones: each ends the same way in the records and is charged the same prompt, the one the
 * upstream reported in `message_start` before the break (not the client body's size). A connection
 * reset mid-stream and a client that leaves between two events fail (estimated); a reset after the
 * terminal event leaves a whole answer, charged its reported usage, with no error appended for the client.
 */
const secret = 'broken-streams-admin'
const clients: ClientFormat[] = ['messages', 'chat', 'responses', 'generate-sse']
const want = scriptedUsage.beta

let rig: { upstream: UsageUpstream; receiver: OtlpReceiver; proxy: TestProxy }
beforeAll(async () => {
  const models = ['reset', 'reset-end', 'slow'].map(kind => ({ name: `up-beta-${kind}`, alias: `m-${kind}` }))
  rig = await startSettlementRig(secret, url => ({
    'beta-api-key': [{ 'api-key': 'up', 'base-url': url, models }],
    'model-prices': Object.fromEntries(models.map(({ alias }) => [alias, settlementPrice])),
    'client-keys': clients.flatMap(client => models.map(({ alias }) => ({ key: `ck-${client}-${alias}`, name: `${client}-${alias}` }))),
  }))
})
afterAll(() => stopSettlementRig(rig, false))

const admin = managementReader(() => rig.proxy.url, secret)
const recordOf = recordReader(() => rig.proxy.url, secret)

/** A whole streamed call: its text and request id. */
async function call(client: ClientFormat, model: string): Promise<{ text: string; id: string }> {
  const { path, body } = clientCall(client, model, true)
  const response = await fetch(`${rig.proxy.url}${path}`, { method: 'POST', headers: clientHeaders(`ck-${client}-${model}`), body: JSON.stringify(body) })
  expect(response.status).toBe(200)
  return { text: await response.text(), id: response.headers.get('x-request-id')! }
}

/** What every view holds of one request: the recorder's record and the key's recent request. */
async function views(name: string, id: string) {
  const record = await recordOf(id)
  const view = await eventually(async () => { const view = await admin(`/client-keys/${name}`); return view.recent.length ? view : undefined })
  const usage = record.usage
  return { status: record.status, error: record.error, keyStatus: view.recent[0].status, estimated: usage.estimated, input: usage.inputTokens, cached: usage.cachedInputTokens, cacheWrite: usage.cacheCreationInputTokens }
}

describe('a stream that breaks is recorded alike on every path', () => {
  it.each(clients)('%s client, the connection reset mid-stream: failed, the prompt as reported, the error event for the client', async (client) => {
    const { text, id } = await call(client, 'm-reset')
    expect(streamErrorEnding(client, text), text).toBeUndefined()
    expect(await views(`${client}-m-reset`, id)).toEqual({
      status: 200, error: expect.stringMatching(/^upstream stream failed: /), keyStatus: 499,
      estimated: true, input: want.input, cached: want.cacheRead, cacheWrite: want.cacheWrite,
    })
  })

  it.each(clients)('%s client that leaves between two events: disconnected, the prompt as reported', async (client) => {
    const id = await leaveAt(rig.proxy.url, client, 'm-slow', `ck-${client}-m-slow`, ' from')
    expect(await views(`${client}-m-slow`, id)).toEqual({
      status: 200, error: 'client disconnected', keyStatus: 499,
      estimated: true, input: want.input, cached: want.cacheRead, cacheWrite: want.cacheWrite,
    })
  })

  it.each(clients)('%s client, the connection reset after the terminal event: a whole answer, its usage as reported', async (client) => {
    const { text, id } = await call(client, 'm-reset-end')
    expect(streamCompleted(client, text), text).toBeUndefined()
    expect(await views(`${client}-m-reset-end`, id)).toEqual({
      status: 200, error: undefined, keyStatus: 200,
      estimated: undefined, input: want.input, cached: want.cacheRead, cacheWrite: want.cacheWrite,
    })
  })
})
