import { describe, expect, it } from 'vitest'
import { joinParts, RecordBlobs, sameBytes, unpackRecord } from './packed.ts'
import type { FlightRecord, StoredRecord } from './types.ts'

const summary = { id: 'r1', time: 1, durationMs: 2, status: 200, model: 'm', format: 'messages', path: '/v1/messages', stream: true, attemptCount: 1, instance: 'i' }
const storedRecord = (blobs: RecordBlobs, client: Buffer, sent: Buffer | string, stream: { upstream: Uint8Array[]; client: Uint8Array[] }): StoredRecord => ({
  ...summary,
  client: {
    request: { method: 'POST', path: '/v1/messages', headers: {}, body: blobs.body(client) },
    response: { status: 200, headers: {}, stream: blobs.stream({ chunks: stream.client, times: stream.client.map((_, i) => 10 + i), omitted: 0 }, true) },
  },
  attempts: [{
    number: 0, startedAt: 0, credential: 'c', family: 'beta', provider: 'p', model: 'm', upstreamModel: 'm',
    request: { method: 'POST', url: 'https://up/v1/messages', headers: {}, body: blobs.body(sent) },
    response: { status: 200, headers: {}, stream: blobs.stream({ chunks: stream.upstream, times: stream.upstream.map((_, i) => 5 + i), omitted: 0 }, true) },
  }],
})

describe('packed records', () => {
  const body = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'héllo' }] }))
  const events = [Buffer.from('event: a\ndata: {"x":1}\n\n'), Buffer.from('event: b\ndata: {"x":2}\n\n')]

  it('stores bytes sent as they came, and a stream passed unchanged, once; reads them back as text and events', () => {
    const blobs = new RecordBlobs(1024)
    const parts = blobs.pack(JSON.stringify(storedRecord(blobs, body, body, { upstream: events, client: [Buffer.concat(events)] })), [])
    // magic and length, head, the body itself (not a copy), the stream once: the client's one chunk (the
    // upstream's two chunks are the same bytes).
    expect(parts).toHaveLength(2 + 1 + 1)
    expect(parts[2]).toBe(body)
    const packed = joinParts(parts)
    const record = unpackRecord(packed)!
    expect(record.client.request.body).toEqual({ text: body.toString() })
    expect(record.attempts[0]!.request.body).toEqual({ text: body.toString() })
    expect(record.attempts[0]!.response!.stream).toEqual({ events: [{ at: 5, data: 'event: a\ndata: {"x":1}' }, { at: 6, data: 'event: b\ndata: {"x":2}' }] })
    expect(record.client.response.stream).toEqual({ events: [{ at: 10, data: 'event: a\ndata: {"x":1}' }, { at: 10, data: 'event: b\ndata: {"x":2}' }] })
  })

  it('keeps different bodies apart and cuts a body at the cap, counting the bytes left out', () => {
    const blobs = new RecordBlobs(10)
    const record = unpackRecord(joinParts(blobs.pack(JSON.stringify(storedRecord(blobs, body, '{"model":"other"}', { upstream: [], client: [] })), [])))!
    expect(record.client.request.body).toEqual({ text: body.subarray(0, 10).toString(), truncated: body.byteLength - 10 })
    expect(record.attempts[0]!.request.body).toEqual({ text: '{"model":"', truncated: 7 })
    expect(record.attempts[0]!.response!.stream).toEqual({ events: [] })
  })

  it('masks a secret in a body before cutting it, with a mask as long as the secret, in a copy', () => {
    const key = 'sk-client-key-0123456789abcdef'
    const withKey = Buffer.from(`{"note":"${key}"}`)
    const blobs = new RecordBlobs(14)
    const record = unpackRecord(joinParts(blobs.pack(JSON.stringify(storedRecord(blobs, withKey, withKey, { upstream: [], client: [] })), [Buffer.from(key)])))!
    expect(record.client.request.body).toEqual({ text: '{"note":"sk-c*', truncated: withKey.byteLength - 14 })
    expect(JSON.stringify(record)).not.toContain(key)
    expect(withKey.toString()).toContain(key)
    const whole = new RecordBlobs(1024)
    expect(unpackRecord(joinParts(whole.pack(JSON.stringify(storedRecord(whole, withKey, '{}', { upstream: [], client: [] })), [Buffer.from(key)])))!.client.request.body!.text).toBe(`{"note":"sk-c${'*'.repeat(key.length - 8)}cdef"}`)
  })

  it('masks a secret in a stream, also one split between two chunks, without touching the chunks', () => {
    const key = 'sk-client-key-0123456789abcdef'
    const chunks = [Buffer.from(`data: {"t":"${key.slice(0, 10)}`), Buffer.from(`${key.slice(10)}"}\n\n`), Buffer.from(`data: ${key}\n\n`)]
    const blobs = new RecordBlobs(1024)
    const record = unpackRecord(joinParts(blobs.pack(JSON.stringify(storedRecord(blobs, body, body, { upstream: chunks, client: [] })), [Buffer.from(key)])))!
    const mask = `sk-c${'*'.repeat(key.length - 8)}cdef`
    expect(record.attempts[0]!.response!.stream!.events.map(event => event.data)).toEqual([`data: {"t":"${mask}"}`, `data: ${mask}`])
    expect(Buffer.concat(chunks).toString()).toContain(key)
    const single = [Buffer.from(`data: ${key}\n\n`)]
    const one = new RecordBlobs(1024)
    unpackRecord(joinParts(one.pack(JSON.stringify(storedRecord(one, body, body, { upstream: single, client: [] })), [Buffer.from(key)])))
    expect(single[0]!.toString()).toContain(key)
  })

  it('reads a record an earlier version stored as JSON text', () => {
    const old = { ...summary, client: { request: { method: 'POST', path: '/', headers: {}, body: { text: '{}' } }, response: { status: 200, headers: {} } }, attempts: [] } satisfies FlightRecord
    expect(unpackRecord(Buffer.from(JSON.stringify(old)))).toEqual(old)
    expect(unpackRecord(Buffer.from('not json'))).toBeUndefined()
  })

  it('reads a record whose blobs were cut short as missing', () => {
    const blobs = new RecordBlobs(1024)
    const whole = joinParts(blobs.pack(JSON.stringify(storedRecord(blobs, body, body, { upstream: events, client: [] })), []))
    expect(unpackRecord(whole)).toBeDefined()
    expect(unpackRecord(whole.subarray(0, whole.byteLength - 1))).toBeUndefined()
  })
})

describe('sameBytes', () => {
  const b = (...texts: string[]) => texts.map(text => Buffer.from(text))
  const shared = Buffer.from('same chunk')
  it.each([
    [b('abc', 'def'), b('abcdef'), true],
    [b('a', 'bcd', 'ef'), b('ab', 'c', 'def'), true],
    [b('abc', 'def'), b('abc', 'deg'), false],
    [b('abc'), b('abcd'), false],
    [[], [], true],
    [b('', 'ab'), b('ab', ''), true],
    [[shared], [shared], true],
    [[shared.subarray(0, 4), shared.subarray(4)], [shared], true],
  ])('%#', (a, other, expected) => expect(sameBytes(a, other)).toBe(expected))
})
