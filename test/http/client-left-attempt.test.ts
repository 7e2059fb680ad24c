import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { clientCall, clientHeaders } from '../helpers/client-formats.ts'
import { scriptPrompt, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-usage-upstream.ts'
import { eventually } from '../recorder/helpers.ts'

/**
 * A client that leaves while its upstream call is still waiting for the answer's headers takes the call
 * with it. That attempt is no failure of the credential and no retry follows: `/metrics` used to count a
 * retry (status 0) that never happened, the credential's stats an error, the recorder and the span a
 * `retry`. It is now a 499 that gives up, as the request is.
 */
const secret = 'client-left-admin'
let upstream: ScriptedUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startScriptedUpstream()
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'remote-management': { 'secret-key': secret },
    recorder: { mode: 'all' },
    'compat-provider': [{ name: 'p', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'c-1' }, { 'api-key': 'c-2' }], models: [{ name: 'up', alias: 'm' }] }],
  })
})
afterAll(async () => { await proxy?.close(); await upstream?.close() })

const admin = async (path: string) => (await fetch(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${secret}` } })).text()

/** Sends a request whose upstream holds its answer 400 ms (its first event, after its 200: `afterHeaders`), and leaves after 100. */
function leaveEarly(id: string, stream: boolean, afterHeaders = false): Promise<void> {
  const hold = afterHeaders ? { firstEventDelayMs: 400 } : { holdMs: 400 }
  const { path, body } = clientCall('chat', 'm', stream, scriptPrompt({ id, usage: null, style: 'last', ...hold }))
  return new Promise((resolve) => {
    const req = httpRequest(new URL(path, proxy.url), { method: 'POST', headers: { ...clientHeaders('k'), 'x-request-id': id } })
    req.on('error', () => {})
    req.end(JSON.stringify(body))
    setTimeout(() => { req.destroy(); resolve() }, 100)
  })
}

describe('a client that leaves before its answer began', () => {
  it.each([[false, false], [true, false], [true, true]])('stream %s, after the 200 %s: one attempt, given up with 499, no retry counted, the credential not blamed', async (stream, afterHeaders) => {
    const id = `left-${stream}-${afterHeaders}`
    await leaveEarly(id, stream, afterHeaders)
    const record = await eventually(async () => {
      const response = await fetch(`${proxy.url}/v0/management/requests/${id}`, { headers: { authorization: `Bearer ${secret}` } })
      return response.status === 200 ? response.json() as Promise<any> : undefined
    })
    expect(record.status).toBe(499)
    expect(record.attempts.map((attempt: any) => [attempt.status, attempt.action])).toEqual([[499, 'fail']])
    expect(upstream.attempts.get(id)).toBe(1)
    expect(await admin('/metrics')).not.toMatch(/^proxy_upstream_retries_total\{/m)
    const { credentials } = JSON.parse(await admin('/v0/management/credentials'))
    for (const credential of credentials) expect(credential.stats.errors, credential.id).toBe(0)
  })
})
