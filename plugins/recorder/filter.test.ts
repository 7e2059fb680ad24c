import { describe, expect, it } from 'vitest'
import { matches, parseFilter } from './filter.ts'
import type { RecordSummary } from './types.ts'

const row = (over: Partial<RecordSummary> = {}): RecordSummary => ({ id: 'r', time: 1000, durationMs: 1, status: 200, model: 'm', format: 'chat', path: '/v1/chat/completions', stream: false, attemptCount: 1, instance: 'i', ...over })
const q = (query: string) => parseFilter(new URLSearchParams(query))

describe('parseFilter', () => {
  it.each([
    ['', { filter: {} }],
    ['key=team&model=m&status=5xx', { filter: { key: 'team', model: 'm', status: '5xx' } }],
    ['status=503&from=10&to=2026-01-01T00:00:00Z', { filter: { status: 503, from: 10, to: Date.parse('2026-01-01T00:00:00Z') } }],
    ['replay-of=abc', { filter: { replayOf: 'abc' } }],
    ['status=bad', { error: 'status must be a status code, 2xx, 4xx, 5xx, ok or error' }],
    ['from=yesterday', { error: 'from must be epoch milliseconds or an ISO date' }],
  ])('%j', (query, expected) => expect(q(query)).toEqual(expected))
})

describe('matches', () => {
  it.each([
    [row(), {}, true],
    [row({ keyName: 'team' }), { key: 'team' }, true],
    [row({ clientKey: 'sk-a...1234' }), { key: 'sk-a...1234' }, true],
    [row({ keyName: 'other' }), { key: 'team' }, false],
    [row({ servedModel: 'fallback' }), { model: 'fallback' }, true],
    [row(), { model: 'x' }, false],
    [row({ status: 502 }), { status: '5xx' as const }, true],
    [row({ status: 502 }), { status: 'error' as const }, true],
    [row({ status: 200, error: 'client disconnected' }), { status: 'error' as const }, true],
    [row({ status: 200, error: 'client disconnected' }), { status: 'ok' as const }, false],
    [row({ status: 429 }), { status: 429 }, true],
    [row({ status: 429 }), { status: '5xx' as const }, false],
    [row({ time: 50 }), { from: 100 }, false],
    [row({ time: 150 }), { from: 100, to: 200 }, true],
    [row({ replayOf: 'a' }), { replayOf: 'a' }, true],
  ])('%j with %j -> %s', (summary, filter, expected) => expect(matches(summary, filter)).toBe(expected))
})
