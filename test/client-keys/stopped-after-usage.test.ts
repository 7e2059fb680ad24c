import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { clientCall, clientHeaders, type ClientFormat } from '../helpers/client-formats.ts'
import { scriptPrompt, startScriptedUpstream, type Script, type ScriptedUpstream, type ScriptFamily } from '../helpers/scripted-usage-upstream.ts'
import { eventually } from '../recorder/helpers.ts'

/**
 * An upstream stream that reports its usage and then sends its format's error event (no terminal
 * event): the request is charged an estimate that starts from what was reported (docs/usage-accounting.md),
 * on the passthrough (chat to compat, generateContent to alpha, messages to beta, responses to gamma) and
 * translated alike.
 * Chat's and generateContent's counts used to be dropped at the error (the prompt charged by body size),
 * and the usage a failed response (response.failed) reports.
 */

const secret = 'stopped-admin'
let upstream: ScriptedUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startScriptedUpstream()
  const url = upstream.url
  proxy = await startTestProxy({
    'remote-management': { 'secret-key': secret },
    recorder: { mode: 'all' },
    'api-keys': ['k'],
    'compat-provider': [{ name: 'p', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'c-1' }], models: [{ name: 'up-compat', alias: 'm-compat' }] }],
    'beta-api-key': [{ 'api-key': 'b', 'base-url': url, models: [{ name: 'up-beta', alias: 'm-beta' }] }],
    'gamma-api-key': [{ 'api-key': 'g', 'base-url': `${url}/v1`, models: [{ name: 'up-gamma', alias: 'm-gamma' }] }],
    'alpha-api-key': [{ 'api-key': 'a', 'base-url': url, models: [{ name: 'up-alpha', alias: 'm-alpha' }] }],
  })
})
afterAll(async () => { await proxy?.close(); await upstream?.close() })

let n = 0
/** The recorded usage of one streamed request that follows `script`. */
async function usageOf(client: ClientFormat, family: ScriptFamily, script: Omit<Script, 'id'>) {
  const id = `s${n++}`
  const { path, body } = clientCall(client, `m-${family}`, true, scriptPrompt({ id, ...script }))
  const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { ...clientHeaders('k'), 'x-request-id': id }, body: JSON.stringify(body) })
  await response.text()
  const record = await eventually(async () => {
    const r = await fetch(`${proxy.url}/v0/management/requests/${id}`, { headers: { authorization: `Bearer ${secret}` } })
    return r.status === 200 ? r.json() as Promise<any> : undefined
  })
  return record.usage
}

const usage = { input: 3860, output: 964, cacheRead: 3348, cacheWrite: 0, reasoning: 2 }
const clients: ClientFormat[] = ['chat', 'messages', 'responses', 'generate-sse']
const cases = (['compat', 'alpha', 'beta', 'gamma'] as const).flatMap(family => clients.map(client => [client, family] as const))

describe('a stream whose upstream sends its error after reporting usage', () => {
  it.each(cases)('%s client, %s upstream: charged the usage reported before the error', async (client, family) => {
    // `early`: every count comes in the first event, before any text.
    expect(await usageOf(client, family, { usage, style: 'early', midError: true })).toMatchObject({
      inputTokens: usage.input, outputTokens: usage.output, cachedInputTokens: usage.cacheRead, estimated: true,
    })
  })
})
