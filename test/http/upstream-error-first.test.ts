import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { startTestProxy } from '../helpers/proxy-server.ts'
import { closeFaultProxy, errorFirstEvents, familyEntries, mergeEntries, startFaultUpstreams, type FaultUpstream, type UpstreamFamily } from '../helpers/fault-upstream.ts'
import { callClient, clientFormats, streamCompleted, type ClientFormat } from '../helpers/client-formats.ts'

/**
 * A 200 stream whose first event is an error (relays and gateways do this: overloaded, rate limited)
 * has sent the client nothing yet: it is a failed attempt with the error's status, the next credential
 * answers, and with none left the client gets the error as an HTTP error in its own format, uncharged.
 * Same-format clients (passthrough) and translated ones alike: every client gets the family's status,
 * as its own vendor says it (the messages API's 529 overloaded is the 503 every other vendor sends for overload).
 */
const families: UpstreamFamily[] = ['compat', 'beta', 'gamma', 'alpha']
const cases = clientFormats.flatMap(client => families.map(family => ({ client, family, tag: `${client}-${family}` })))

let upstreams: Record<UpstreamFamily, FaultUpstream>
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await startFaultUpstreams(families)
  // A credential of its own per case (`#tag`): no case's cooldown decides another's. The model by its own name: same-format clients pass through.
  const entries = mergeEntries(cases.flatMap(({ family, tag }) => [
    familyEntries(family, upstreams[family].baseUrl, [`error-first#${tag}`, `ok#${tag}`], `then-ok-${tag}`, true),
    familyEntries(family, upstreams[family].baseUrl, [`error-first#only-${tag}`], `only-${tag}`, true),
  ]))
  proxy = await startTestProxy({
    'api-keys': ['k'],
    routing: { strategy: 'fill-first' },
    'remote-management': { 'secret-key': 'adm' },
    recorder: { mode: 'all' },
    timeouts: { 'first-byte-seconds': 2, 'stream-idle-seconds': 2 },
    ...entries,
  })
})
afterAll(() => closeFaultProxy(proxy, upstreams))

const recorded = async (model: string) => {
  const response = await fetch(`${proxy.url}/v0/management/requests?model=${encodeURIComponent(model)}`, { headers: { authorization: 'Bearer adm' } })
  return (await response.json()).requests as Array<{ status: number; usage?: unknown; attemptCount: number }>
}

const clientStatus = (client: ClientFormat, status: number) => status === 529 && client !== 'messages' ? 503 : status

/** Whether a whole error body is the client format's own. */
function ownErrorShape(client: ClientFormat, body: { type?: unknown; error?: { type?: unknown; message?: unknown; code?: unknown; status?: unknown } }): boolean {
  if (typeof body.error?.message !== 'string') return false
  if (client === 'messages') return body.type === 'error' && typeof body.error.type === 'string'
  if (client === 'generate-sse' || client === 'generate-array') return typeof body.error.code === 'number' && typeof body.error.status === 'string'
  return typeof body.error.type === 'string'
}

describe.concurrent('a 200 stream whose first event is an error fails over', () => {
  it.each(cases)('$client client, $family upstream', async ({ client, family, tag }) => {
    const { status, text } = await callClient(proxy.url, client, `then-ok-${tag}`, true)
    expect(status, text).toBe(200)
    expect(text).toContain('playground')
    expect(streamCompleted(client, text), text).toBeUndefined()
    // A 429 tries the same credential's preview model first (routing rule 10), then the next credential.
    const keys = upstreams[family].requests.filter(r => r.key.endsWith(`#${tag}`)).map(r => r.key)
    expect(keys).toEqual([...Array(errorFirstEvents[family].status === 429 ? 2 : 1).fill(`error-first#${tag}`), `ok#${tag}`])
  })
})

describe.concurrent('with no credential left, the client gets the error as an HTTP error in its own format', () => {
  it.each(cases)('$client client, $family upstream', async ({ client, family, tag }) => {
    const { status, headers, text } = await callClient(proxy.url, client, `only-${tag}`, true)
    expect(status, text).toBe(clientStatus(client, errorFirstEvents[family].status))
    expect(headers.get('content-type')).toContain('application/json')
    const body = JSON.parse(text)
    expect(ownErrorShape(client, body), text).toBe(true)
    // The upstream's own message, its credential masked.
    expect(text).toContain('(key ')
    expect(text).not.toContain(`error-first#only-${tag}`)
    const [record] = await recorded(`only-${tag}`)
    const attempts = upstreams[family].requests.filter(r => r.key === `error-first#only-${tag}`).length
    expect(record).toMatchObject({ status: clientStatus(client, errorFirstEvents[family].status), attemptCount: attempts })
    expect(record!.usage).toBeUndefined()
  })
})
