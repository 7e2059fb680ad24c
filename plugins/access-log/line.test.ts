import { describe, expect, it } from 'vitest'
import { accessLogFormat } from './index.ts'
import { jsonLine, textLine, type AccessEntry } from './line.ts'

const entry: AccessEntry = {
  time: '2026-01-02T03:04:05.000Z', id: 'req-1', method: 'POST', path: '/v1/messages', status: 200, key: 'team-a', model: 'claude',
  servedModel: 'claude-fallback', upstreamModel: 'gpt-x', family: 'compat', credential: 'compat:up:0', inputTokens: 12, outputTokens: 34, latencyMs: 56,
}

describe('access log lines', () => {
  it('JSON: one object, every field, snake_case', () => {
    expect(JSON.parse(jsonLine(entry))).toEqual({
      time: entry.time, level: 'info', msg: 'request', request_id: 'req-1', method: 'POST', path: '/v1/messages', status: 200, key: 'team-a',
      model: 'claude', served_model: 'claude-fallback', upstream_model: 'gpt-x', family: 'compat', credential: 'compat:up:0',
      input_tokens: 12, output_tokens: 34, latency_ms: 56,
    })
  })

  it.each([
    [entry, '2026-01-02T03:04:05.000Z 200 POST /v1/messages claude->claude-fallback compat/compat:up:0:gpt-x key=team-a tokens=12/34 56ms req-1'],
    [{ ...entry, servedModel: undefined, family: undefined, credential: undefined, upstreamModel: undefined, key: undefined, inputTokens: undefined, outputTokens: undefined, status: 401, error: 'missing key' },
      '2026-01-02T03:04:05.000Z 401 POST /v1/messages claude key=- 56ms req-1 error="missing key"'],
  ])('text: %#', (input, line) => {
    expect(textLine(input)).toBe(line)
  })

  it.each([
    ['auto', undefined, true, true, 'text'],
    ['auto', undefined, true, false, 'json'],
    ['auto', undefined, false, true, undefined],
    ['off', undefined, true, false, undefined],
    ['json', undefined, false, true, 'json'],
    ['auto', 'off', true, false, undefined],
    ['off', 'text', false, false, 'text'],
    ['auto', 'nonsense', true, false, 'json'],
  ] as const)('format: configured %s, env %s, cli %s, tty %s -> %s', (configured, env, cli, tty, expected) => {
    expect(accessLogFormat(configured, env, cli, tty)).toBe(expected)
  })
})
