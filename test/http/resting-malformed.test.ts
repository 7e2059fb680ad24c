import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { familyEntries, mergeEntries, startFaultUpstreams, type FaultUpstream, type UpstreamFamily } from '../helpers/fault-upstream.ts'
import { clientCall, clientHeaders, type ClientFormat } from '../helpers/client-formats.ts'

/**
 * A malformed body is the client's 400 whatever the credential pool's state: while every credential of
 * the model rests after a 429, a translated request whose body the proxy cannot read gets the same 400
 * it gets when a credential is free, not the pool's 429 or 503. A same-format body is the vendor's to
 * judge and keeps the pool's answer, except where the proxy checks the format's limits on every path
 * (chat's messages, generateContent's contents: refused before routing).
 */

const families: UpstreamFamily[] = ['compat', 'beta', 'gamma', 'alpha']
const formats: ClientFormat[] = ['chat', 'messages', 'responses', 'generate-sse']
const ownFamily: Record<string, UpstreamFamily> = { chat: 'compat', messages: 'beta', responses: 'gamma', 'generate-sse': 'alpha' }
const checkedOnEveryPath = new Set<ClientFormat>(['chat', 'generate-sse'])
const cases = formats.flatMap(format => families.map(family => ({ format, family, translated: ownFamily[format] !== family })))
const alias = (c: { format: string; family: string }, state: string) => `${state}-${c.family}-${c.format}`

/** The format's request with its main list replaced by a number: refused by the format's own decoder. */
function malformed(format: ClientFormat, model: string) {
  const { path, body } = clientCall(format, model, true)
  const broken = format === 'responses' ? { ...body, input: 42 } : format === 'generate-sse' ? { ...body, contents: 42 } : { ...body, messages: 42 }
  return { path, body: broken }
}

async function post(proxy: TestProxy, call: { path: string; body: unknown }) {
  const response = await fetch(`${proxy.url}${call.path}`, { method: 'POST', headers: clientHeaders('k'), body: JSON.stringify(call.body), signal: AbortSignal.timeout(10_000) })
  return { status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after') }
}

let upstreams: Record<UpstreamFamily, FaultUpstream>
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await startFaultUpstreams(families)
  proxy = await startTestProxy({
    'api-keys': ['k'],
    routing: { strategy: 'fill-first' },
    'max-retry-interval': 0,
    ...mergeEntries(cases.flatMap(c => [
      familyEntries(c.family, upstreams[c.family].baseUrl, ['ok'], alias(c, 'free')),
      // A 429 with no Retry-After: the credential rests for the proxy's own cooldown, longer than this test.
      familyEntries(c.family, upstreams[c.family].baseUrl, ['status-429-bare'], alias(c, 'resting')),
    ])),
  })
})
afterAll(async () => {
  await proxy?.close()
  await Promise.all(Object.values(upstreams ?? {}).map(upstream => upstream.close()))
})

describe.concurrent('a malformed body while every credential rests', () => {
  it.each(cases)('$format client, $family upstream', async c => {
    const free = await post(proxy, malformed(c.format, alias(c, 'free')))
    const rested = await post(proxy, clientCall(c.format, alias(c, 'resting'), true))
    expect(rested.status, rested.text).toBe(429)
    const resting = await post(proxy, malformed(c.format, alias(c, 'resting')))
    if (!c.translated && !checkedOnEveryPath.has(c.format)) {
      expect(resting.status, resting.text).toBe(429)
      expect(resting.retryAfter).not.toBeNull()
      return
    }
    expect(free.status, free.text).toBe(400)
    expect(resting.status, resting.text).toBe(400)
    expect(resting.text.replace(/resting-/g, 'free-')).toBe(free.text)
    expect(resting.retryAfter).toBeNull()
  })
})
