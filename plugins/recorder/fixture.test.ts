import { describe, expect, it } from 'vitest'
import { pathWithoutKey, toFixture, wholeBody } from './fixture.ts'
import type { FlightRecord } from './types.ts'

const record = (over: Partial<FlightRecord['client']['request']> = {}): FlightRecord => ({
  id: 'req-1', time: 0, durationMs: 5, status: 502, error: 'upstream returned 500', model: 'm', format: 'messages', path: '/v1/messages', stream: false, attemptCount: 1, instance: 'i',
  client: {
    request: { method: 'POST', path: '/v1/messages', headers: { 'x-api-key': 'sk-a...1234', host: 'h', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: { text: '{"model":"m","messages":[]}' }, ...over },
    response: { status: 502, headers: {}, body: { text: '{"type":"error"}' } },
  },
  attempts: [{ number: 0, startedAt: 1, credential: 'c', family: 'compat', provider: 'p', model: 'm', upstreamModel: 'u', status: 500, request: { method: 'POST', url: 'http://up/v1/chat/completions', headers: {}, body: { text: '{"model":"u"}' } }, response: { status: 500, headers: {}, body: { text: 'oops' } } }],
})

describe('toFixture', () => {
  it('keeps the client request, authenticated as the client did, and says what happened', () => {
    expect(toFixture(record(), '1.0.0')).toEqual({
      client: 'recorder', version: '1.0.0', case: 'req-1', method: 'POST', path: '/v1/messages',
      headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'x-api-key': '<client-key>' },
      body: { model: 'm', messages: [] },
      recorded: { time: '1970-01-01T00:00:00.000Z', model: 'm', status: 502, error: 'upstream returned 500', upstream: { url: 'http://up/v1/chat/completions', request: { model: 'u' }, response: 'oops', status: 500 }, response: { type: 'error' } },
    })
  })
  it('refuses a body cut at the cap', () => {
    expect(toFixture(record({ body: { text: '{"mo', truncated: 10 } }), '1')).toEqual({ error: expect.stringContaining('max-body-kb') })
  })
  it.each([
    [undefined, { error: 'the record has no client body' }],
    [{ text: 'x' }, { error: 'the client body is not JSON' }],
    [{ text: '[1]' }, { value: [1] }],
  ])('wholeBody(%j)', (body, expected) => expect(wholeBody(body)).toEqual(expected))
  it.each([
    ['/v1beta/models/m:generateContent?key=sk-a...1234', '/v1beta/models/m:generateContent'],
    ['/v1beta/models/m:streamGenerateContent?key=x&alt=sse', '/v1beta/models/m:streamGenerateContent?alt=sse'],
    ['/v1beta/models/m:streamGenerateContent?alt=sse&key=x', '/v1beta/models/m:streamGenerateContent?alt=sse'],
  ])('pathWithoutKey(%j)', (path, expected) => expect(pathWithoutKey(path)).toBe(expected))
})
