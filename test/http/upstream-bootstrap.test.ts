import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { familyEntries, mergeEntries, startFaultUpstreams, type Fault, type FaultUpstream, type UpstreamFamily } from '../helpers/fault-upstream.ts'
import { callClient, streamCompleted, type ClientFormat } from '../helpers/client-formats.ts'

/**
 * Issue 18.11, with the default settings (no bootstrap retries configured): an upstream that answers
 * 200 and then sends something that is not an event (an HTML page, garbage, a cut-off body, a whole
 * event whose JSON is cut: `data: {"id":`) has failed before the first byte, like a 502: the next
 * credential answers, and the client never sees half a frame. When every credential answers 429 the
 * client gets a 429 that says when to come back (`Retry-After`), in its own format.
 */

const families: UpstreamFamily[] = ['compat', 'beta', 'gamma', 'alpha']
const clients: ClientFormat[] = ['chat', 'messages', 'responses', 'generate-sse']
const junk: Fault[] = ['nonjson-pre', 'truncated-pre', 'garbage-pre', 'halfevent-pre']

const stormCases = clients.flatMap(client => families.flatMap(family => ['storm-bare', 'storm'].flatMap(storm => [true, false].map(stream => ({ client, family, storm, stream })))))
const stormAlias = (c: { family: string; storm: string; client: string; stream: boolean }) => `${c.family}-${c.storm}-${c.client}-${c.stream}`

let upstreams: Record<UpstreamFamily, FaultUpstream>
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await startFaultUpstreams(families)
  const entries = mergeEntries(families.flatMap(family => [
    ...junk.map(fault => familyEntries(family, upstreams[family].baseUrl, [fault, 'ok'], `${family}-${fault}`)),
    // One alias per storm case: a credential cooling down from an earlier case would answer for it.
    ...stormCases.filter(c => c.family === family).map(({ storm, client, stream }) =>
      familyEntries(family, upstreams[family].baseUrl, storm === 'storm' ? ['status-429', 'status-429-bare'] : ['status-429-bare', 'status-429-bare'], stormAlias({ family, storm, client, stream }))),
  ]))
  // Nothing about retries configured: the spec's defaults (request-retry 3, bootstrap-retries 0).
  proxy = await startTestProxy({ 'api-keys': ['k'], routing: { strategy: 'fill-first' }, 'max-retry-interval': 0, ...entries })
})
afterAll(async () => {
  await proxy?.close()
  await Promise.all(Object.values(upstreams ?? {}).map(upstream => upstream.close()))
})

const call = (format: ClientFormat, model: string, stream: boolean) => callClient(proxy.url, format, model, stream)

const junkCases = clients.flatMap(client => families.flatMap(family => junk.map(fault => ({ client, family, fault }))))

describe.concurrent('a 200 stream that is junk before its first event fails over to the next credential', () => {
  it.each(junkCases)('$client client, $family upstream, $fault', async ({ client, family, fault }) => {
    const { status, text } = await call(client, `${family}-${fault}`, true)
    expect(status, text).toBe(200)
    expect(streamCompleted(client, text), text).toBeUndefined()
    expect(text).toContain('Hello')
    expect(text).not.toContain('not SSE at all')
    expect(upstreams[family].requests.some(r => r.key === fault)).toBe(true)
  })
})

/** The error body of each client format carries the 429 its own way. */
const says429: Record<string, (body: any) => boolean> = {
  chat: body => body.error.type === 'rate_limit_error',
  messages: body => body.type === 'error' && body.error.type === 'rate_limit_error',
  responses: body => body.error.type === 'rate_limit_error' || body.error.code === 'rate_limit_exceeded',
  'generate-sse': body => body.error.code === 429 && body.error.status === 'RESOURCE_EXHAUSTED',
}


describe.concurrent('a 429 from every credential', () => {
  it.each(stormCases)('$client client, $family upstream, $storm, stream $stream: 429 with Retry-After', async ({ client, family, storm, stream }) => {
    const { status, headers, text } = await call(client, stormAlias({ family, storm, client, stream }), stream)
    expect(status, text).toBe(429)
    const retryAfter = Number(headers.get('retry-after'))
    expect(Number.isInteger(retryAfter) && retryAfter >= 1, `retry-after: ${headers.get('retry-after')}`).toBe(true)
    expect(says429[client]!(JSON.parse(text)), text).toBe(true)
  })
})
