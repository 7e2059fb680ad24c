import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { scriptedUsage, startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { clientCall, clientHeaders, streamCompleted, streamErrorEnding, type ClientFormat } from '../helpers/client-formats.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'
import { eventually } from '../recorder/helpers.ts'
import { managementReader, recordReader, settlementPrice } from '../client-keys/settlement-prices.ts'

/**
 * A `before-response` hook that wraps the answer stream, and whose wrapper fails mid-stream (`m-break`),
 * fails once the upstream has ended (`m-flush`), or ends early without failing (`m-stop`). The client
 * gets its format's error event and a proper end, as for an upstream whose stream breaks (`m-reset`),
 * and the request is recorded as failed the same way in the recorder, the key's requests, `/usage`,
 * `/metrics` and the access log: never as a success. A wrapper that passes everything (`m-pass`) changes
 * nothing. The process keeps serving.
 */
const secret = 'hook-stream-admin'
const clients: ClientFormat[] = ['messages', 'chat', 'responses', 'generate-sse']
/** Client model -> upstream model: `-slow` sends an event every 100 ms (the wrapper breaks while the upstream still streams). */
const models: Record<string, string> = { 'm-break': 'up-beta-slow', 'm-stop': 'up-beta-slow', 'm-flush': 'up-beta', 'm-pass': 'up-beta', 'm-reset': 'up-beta-reset' }

const wrapper = defineProxyPlugin({
  name: 'wrapper',
  setup(kernel) {
    kernel.hooks.hook('before-response', (ctx) => {
      const model = ctx.request.model
      if (model === 'm-reset' || !ctx.stream) return
      let chunks = 0
      ctx.stream = ctx.stream.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (++chunks === 3 && model === 'm-break') return controller.error(new Error('wrapper broke on purpose'))
          controller.enqueue(chunk)
          if (chunks === 2 && model === 'm-stop') controller.terminate()
        },
        flush() { if (model === 'm-flush') throw new Error('wrapper broke at the end on purpose') },
      }))
    })
  },
})

let upstream: UsageUpstream
let proxy: TestProxy
const logged: string[] = []
beforeAll(async () => {
  upstream = await startUsageUpstream()
  const write = process.stdout.write.bind(process.stdout)
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any, ...rest: any[]) => {
    if (String(chunk).includes('"request_id"')) return logged.push(String(chunk)) > 0
    return write(chunk, ...rest)
  })
  proxy = await startTestProxy({
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    recorder: { mode: 'all' },
    'access-log': 'json',
    metrics: { enable: true, path: '/metrics', 'require-key': false },
    'beta-api-key': [{ 'api-key': 'up', 'base-url': upstream.url, models: Object.entries(models).map(([alias, name]) => ({ name, alias })) }],
    'model-prices': Object.fromEntries(Object.keys(models).map(model => [model, settlementPrice])),
    'client-keys': clients.flatMap(client => Object.keys(models).map(model => ({ key: `ck-${client}-${model}`, name: `${client}-${model}` }))),
  }, [wrapper])
})
afterAll(async () => {
  vi.restoreAllMocks()
  await proxy?.close()
  await upstream?.close()
})

const admin = managementReader(() => proxy.url, secret)
const recordOf = recordReader(() => proxy.url, secret)

async function call(client: ClientFormat, model: string): Promise<{ text: string; id: string }> {
  const { path, body } = clientCall(client, model, true)
  const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders(`ck-${client}-${model}`), body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
  expect(response.status).toBe(200)
  return { text: await response.text(), id: response.headers.get('x-request-id')! }
}

/** How every record of one request reads: recorder, the key's recent request, /usage, the access log line. */
async function records(client: ClientFormat, model: string, id: string) {
  const name = `${client}-${model}`
  const record = await recordOf(id)
  const view = await eventually(async () => { const view = await admin(`/client-keys/${name}`); return view.recent.length ? view : undefined })
  const row = (await admin('/usage')).usage.by_client_key[name]
  const line = JSON.parse(await eventually(async () => logged.find(text => text.includes(`"request_id":"${id}"`))))
  return {
    status: record.status, error: record.error, estimated: record.usage.estimated, input: record.usage.inputTokens,
    key: view.recent[0].status, failures: row.failure, logged: [line.status, line.error],
  }
}

/** Requests of `model` with `status` in /metrics, over every endpoint. */
const metric = async (model: string, status: number) => {
  const text = await (await fetch(`${proxy.url}/metrics`)).text()
  const lines = text.split('\n').filter(line => line.startsWith('proxy_requests_total{') && line.includes(`model="${model}"`) && line.includes(`status="${status}"`))
  return lines.reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0)
}

describe('a before-response hook whose stream wrapper fails', () => {
  it.each(clients)('%s client: the upstream break is the reference', async (client) => {
    const { text, id } = await call(client, 'm-reset')
    expect(streamErrorEnding(client, text), text).toBeUndefined()
    expect(await records(client, 'm-reset', id)).toMatchObject({ status: 200, error: expect.stringMatching(/^upstream stream failed/), estimated: true, input: scriptedUsage.beta.input, key: 499, failures: 1, logged: [499, expect.any(String)] })
  })

  it.each(clients.flatMap(client => [['m-break', 'failed'], ['m-flush', 'failed'], ['m-stop', 'ended before the answer did']].map(([model, what]) => ({ client, model, what }))))('$client client, $model: the client gets its error ending, every record says failed', async ({ client, model, what }) => {
    const { text, id } = await call(client, model)
    expect(streamErrorEnding(client, text), text).toBeUndefined()
    const error = `the stream a before-response hook set ${what}`
    // The client's error event says what the records say (not the hook's own error: it may hold internals).
    expect(text).toContain(error)
    expect(text).not.toContain('on purpose')
    expect(await records(client, model, id)).toEqual({ status: 200, error, estimated: true, input: scriptedUsage.beta.input, key: 499, failures: 1, logged: [499, error] })
  })

  it('counts them as failed in /metrics, and the process keeps serving', async () => {
    for (const model of ['m-break', 'm-flush', 'm-stop']) expect(await metric(model, 499), model).toBe(clients.length)
    for (const model of ['m-break', 'm-flush', 'm-stop']) expect(await metric(model, 200), model).toBe(0)
    const { text, id } = await call('messages', 'm-pass')
    expect(streamCompleted('messages', text), text).toBeUndefined()
    expect(await records('messages', 'm-pass', id)).toMatchObject({ status: 200, error: undefined, estimated: undefined, input: scriptedUsage.beta.input, key: 200, failures: 0 })
  })
})
