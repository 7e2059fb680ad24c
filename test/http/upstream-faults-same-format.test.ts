import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { closeFaultProxy, familyEntries, mergeEntries, startFaultProxy, startFaultUpstreams, type Fault, type FaultUpstream, type UpstreamFamily } from '../helpers/fault-upstream.ts'
import { callClient, streamCompleted, streamErrorEnding, type ClientFormat } from '../helpers/client-formats.ts'

/**
 * Upstream faults on the path agents really take: the client's own format, the model by its own name,
 * so the answer passes through (never decoded for the client, read for its usage only). It must fail as
 * the translating path does: a fault before the first byte is one more failed attempt (the next
 * credential answers), one after it ends the stream with an error in the client's format.
 */
const own: Array<[UpstreamFamily, ClientFormat]> = [['compat', 'chat'], ['beta', 'messages'], ['gamma', 'responses'], ['alpha', 'generate-sse']]
const pre: Fault[] = ['braced-garbage-pre', 'nonjson-pre', 'truncated-pre', 'reset-pre', 'halfevent-pre', 'garbage-pre', 'empty-pre', 'done-pre']
const post: Fault[] = ['truncated-post', 'reset-post', 'cut-post', 'midframe-post']

let upstreams: Record<UpstreamFamily, FaultUpstream>
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await startFaultUpstreams(own.map(([family]) => family))
  const entries = mergeEntries(own.flatMap(([family]) => [
    ...[...pre, ...post].map(fault => familyEntries(family, upstreams[family].baseUrl, [fault, 'ok'], `same-${family}-${fault}`, true)),
    familyEntries(family, upstreams[family].baseUrl, ['mixed-line-ends'], `same-${family}-mixed`, true),
    familyEntries(family, upstreams[family].baseUrl, ['bom'], `same-${family}-bom`, true),
  ]))
  proxy = await startFaultProxy(entries)
})
afterAll(() => closeFaultProxy(proxy, upstreams))

describe.concurrent('same format, same model name: a fault before the first byte fails over', () => {
  it.each(own.flatMap(([family, client]) => pre.flatMap(fault => [true, false].map(stream => ({ family, client, fault, stream })))))('$client -> $family, $fault, stream $stream', async ({ family, client, fault, stream }) => {
    const { status, text } = await callClient(proxy.url, client, `same-${family}-${fault}`, stream)
    expect(status, text).toBe(200)
    expect(text).toContain('playground')
    if (stream) expect(streamCompleted(client, text), text).toBeUndefined()
    else expect(() => JSON.parse(text)).not.toThrow()
    expect(upstreams[family].requests.some(r => r.key === fault)).toBe(true)
  })
})

describe.concurrent('same format, same model name: a fault after the first byte ends the stream with an error', () => {
  it.each(own.flatMap(([family, client]) => post.map(fault => ({ family, client, fault }))))('$client -> $family, $fault', async ({ family, client, fault }) => {
    const { status, text } = await callClient(proxy.url, client, `same-${family}-${fault}`, true)
    expect(status).toBe(200)
    expect(text).toContain('Hello')
    expect(streamErrorEnding(client, text), text).toBeUndefined()
  })
})

describe.concurrent('same format, same model name: line ends as SSE allows them', () => {
  it.each(own)('%s: an upstream mixing \\n, \\r\\n and \\r streams through as it came', async (family, client) => {
    const { status, text } = await callClient(proxy.url, client, `same-${family}-mixed`, true)
    expect(status, text).toBe(200)
    expect(text).toContain('playground')
    // Its own bytes (no other credential to fail over to), whole to the terminal event.
    expect(text).toContain('\n\r\n')
    expect(streamCompleted(client, text), text).toBeUndefined()
    expect(upstreams[family].requests.filter(r => r.key === 'mixed-line-ends')).toHaveLength(1)
  })
})

describe.concurrent('same format, same model name: an answer after a UTF-8 byte order mark', () => {
  it.each(own.flatMap(([family, client]) => [true, false].map(stream => ({ family, client, stream }))))('$client -> $family, stream $stream: answered, without the mark', async ({ family, client, stream }) => {
    const { status, text } = await callClient(proxy.url, client, `same-${family}-bom`, stream)
    expect(status, text).toBe(200)
    expect(text).toContain('playground')
    expect(text.charCodeAt(0)).not.toBe(0xFEFF)
    if (stream) expect(streamCompleted(client, text), text).toBeUndefined()
    else expect(() => JSON.parse(text)).not.toThrow()
  })
})
