import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer } from 'node:net'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { closeFaultProxy, familyEntries, mergeEntries, startFaultProxy, startFaultUpstreams, type Fault, type FaultUpstream, type UpstreamFamily } from '../helpers/fault-upstream.ts'
import { callClient, clientFormats, streamCompleted, streamErrorEnding, type ClientFormat } from '../helpers/client-formats.ts'

/**
 * Upstream faults over every client format x upstream family. Before the first byte reaches the client
 * a fault is one more failed attempt: the next credential answers. After it, the client gets an error in
 * its own format and a clean end of stream: no hang, no reset, no half frame.
 */

const families: UpstreamFamily[] = ['compat', 'beta', 'gamma', 'alpha']
const pre: Fault[] = ['nonjson-pre', 'truncated-pre', 'reset-pre', 'hang-pre', 'empty-pre', 'done-pre']
// cut-post and midframe-post close cleanly: the missing terminal event (or the half event) is the fault.
const post: Fault[] = ['truncated-post', 'reset-post', 'hang-post', 'cut-post', 'midframe-post']

let upstreams: Record<UpstreamFamily, FaultUpstream>
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await startFaultUpstreams(families)
  // One alias per family and fault, served by the faulty key first and a good one second (fill-first).
  const entries = mergeEntries(families.flatMap(family => [...pre, ...post, 'trickle' as const].map(fault => familyEntries(family, upstreams[family].baseUrl, [fault, 'ok'], `${family}-${fault}`))))
  // No fault: the answer after a byte order mark, from the one credential there is.
  for (const [key, list] of Object.entries(mergeEntries(families.map(family => familyEntries(family, upstreams[family].baseUrl, ['bom'], `${family}-bom`))))) (entries[key] ??= []).push(...list)
  // Refused: the first credential's upstream is a port nobody listens on (its listener closed), the second answers.
  const closed = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
  for (const family of families) {
    const refused = familyEntries(family, upstreams[family].baseUrl.replace(/:\d+/, `:${closed}`), ['refused'], `${family}-refused`)
    if (family === 'compat') (refused['compat-provider']![0] as { name: string }).name = 'refused-compat'
    const good = familyEntries(family, upstreams[family].baseUrl, ['ok'], `${family}-refused`)
    for (const [key, list] of Object.entries(mergeEntries([refused, good]))) (entries[key] ??= []).push(...list)
  }
  proxy = await startFaultProxy(entries)
})
afterAll(() => closeFaultProxy(proxy, upstreams))

const call = (format: ClientFormat, model: string, stream: boolean) => callClient(proxy.url, format, model, stream)

const preCases = clientFormats.flatMap(client => families.flatMap(family => pre.flatMap(fault => [true, false]
  .filter(stream => stream || client !== 'generate-array')
  .map(stream => ({ client, family, fault, stream })))))
const postCases = clientFormats.flatMap(client => families.flatMap(family => post.map(fault => ({ client, family, fault }))))

describe.concurrent('a fault before the first byte fails over to the next credential', () => {
  it.each(preCases)('$client client, $family upstream, $fault, stream $stream', async ({ client, family, fault, stream }) => {
    const { status, text } = await call(client, `${family}-${fault}`, stream)
    expect(status, text).toBe(200)
    // Text arrives in word-sized deltas on a stream.
    expect(text).toContain('Hello')
    expect(text).toContain('playground')
    if (stream) expect(streamCompleted(client, text), text).toBeUndefined()
    else expect(() => JSON.parse(text)).not.toThrow()
    expect(upstreams[family].requests.some(r => r.key === fault)).toBe(true)
  })
})

describe.concurrent('a fault after the first byte ends the stream with an error in the client format', () => {
  it.each(postCases)('$client client, $family upstream, $fault', async ({ client, family, fault }) => {
    const started = Date.now()
    const { status, text } = await call(client, `${family}-${fault}`, true)
    expect(status).toBe(200)
    expect(text).toContain('Hello')
    expect(streamErrorEnding(client, text), text).toBeUndefined()
    expect(Date.now() - started).toBeLessThan(5000)
  })
})

const everyCall = clientFormats.flatMap(client => families.flatMap(family => [true, false]
  .filter(stream => stream || client !== 'generate-array')
  .map(stream => ({ client, family, stream }))))

describe.concurrent('an upstream that refuses the connection is one more failed attempt', () => {
  it.each(everyCall)('$client client, $family upstream, stream $stream', async ({ client, family, stream }) => {
    const { status, text } = await call(client, `${family}-refused`, stream)
    expect(status, text).toBe(200)
    expect(text).toContain('playground')
    if (stream) expect(streamCompleted(client, text), text).toBeUndefined()
  })
})

describe.concurrent('a slow upstream that keeps sending is never cut', () => {
  it.each(clientFormats.flatMap(client => families.map(family => ({ client, family }))))('$client client, $family upstream', async ({ client, family }) => {
    const { status, text } = await call(client, `${family}-trickle`, true)
    expect(status, text).toBe(200)
    expect(text).toContain('playground')
    expect(streamCompleted(client, text), text).toBeUndefined()
    // Answered by the slow credential itself: nothing failed over.
    expect(upstreams[family].requests.filter(r => r.key === 'trickle').length).toBeGreaterThan(0)
  })
})

describe.concurrent('an answer after a UTF-8 byte order mark is read as the answer', () => {
  it.each(everyCall)('$client client, $family upstream, stream $stream', async ({ client, family, stream }) => {
    const { status, text } = await call(client, `${family}-bom`, stream)
    expect(status, text).toBe(200)
    expect(text).toContain('playground')
    expect(text.charCodeAt(0)).not.toBe(0xFEFF)
    if (stream) expect(streamCompleted(client, text), text).toBeUndefined()
  })
})
