import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { clientCall, clientHeaders } from '../helpers/client-formats.ts'
import { scriptPrompt, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-usage-upstream.ts'
import { eventually } from '../recorder/helpers.ts'

/**
 * A client that leaves while the proxy waits for a cooling credential (its first attempt hit a quota,
 * the only credential cools down a second): the request ends as a client that left, a 499 charged
 * nothing (no attempt answered), in `/usage`, the key and `/metrics` alike. It used to be counted as
 * the quota error (429) nobody received.
 */
const secret = 'client-left-waiting-admin'
let upstream: ScriptedUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startScriptedUpstream()
  proxy = await startTestProxy({
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    'quota-exceeded': { 'switch-preview-model': false },
    'client-keys': [{ key: 'ck-wait', name: 'wait', tpm: 1_000_000 }],
    'compat-provider': [{ name: 'p', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'c-1' }], models: [{ name: 'up', alias: 'm' }] }],
  })
})
afterAll(async () => { await proxy?.close(); await upstream?.close() })

const admin = async (path: string) => (await fetch(`${proxy.url}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } })).json() as Promise<any>

/** Posts a chat request following `script`; leaves after `leaveMs` when given. */
function post(id: string, stream: boolean, script: { fail?: number; failStatus?: number }, leaveMs?: number): Promise<void> {
  const { path, body } = clientCall('chat', 'm', stream, scriptPrompt({ id, usage: null, style: 'last', ...script }))
  return new Promise<void>((resolve) => {
    const req = httpRequest(new URL(path, proxy.url), { method: 'POST', headers: { ...clientHeaders('ck-wait'), 'x-request-id': id } }, (res) => { res.resume(); res.on('end', resolve) })
    req.on('error', () => {})
    req.end(JSON.stringify(body))
    if (leaveMs) setTimeout(() => { req.destroy(); resolve() }, leaveMs)
  })
}

describe('a client that leaves while its request waits for a credential', () => {
  it.each([false, true])('stream %s: a 499 that costs nothing, in every view', async (stream) => {
    // A quota error cools the only credential down a second or two; the next request waits for it.
    await post(`quota-${stream}`, false, { fail: 1, failStatus: 429 })
    const id = `wait-${stream}`
    await post(id, stream, {}, 300)
    const record = await eventually(async () => (await admin('/usage/export')).records.find((r: any) => r.id === id))
    expect(record, JSON.stringify(record)).toMatchObject({ status: 499, inputTokens: 0, outputTokens: 0 })
    const view = await admin('/client-keys/wait')
    expect(view.recent[0]).toMatchObject({ status: 499, inputTokens: 0, outputTokens: 0 })
    expect(upstream.attempts.get(id)).toBeUndefined()
    // The cooldown ends before the next case.
    await new Promise(resolve => setTimeout(resolve, 2500))
  })
})
