import { describe, expect, it } from 'vitest'
import { errorAnswerStatus } from './answer-usage.ts'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { responsesCodec } from '../../providers/gamma/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'
import type { WireCodec } from '../canonical/codec.ts'

const codecs: Record<string, WireCodec> = { compat: chatCodec, beta: messagesCodec, gamma: responsesCodec, alpha: generateCodec }

describe('errorAnswerStatus (a whole 200 body)', () => {
  it.each<[string, string, Record<string, unknown>, number | undefined]>([
    ['compat', 'an error with an HTTP code', { error: { message: 'busy', type: 'server_error', code: 503 } }, 503],
    ['compat', 'a rate limit by code', { error: { message: 'slow', type: 'requests', code: 'rate_limit_exceeded' } }, 429],
    ['compat', 'an invalid request', { error: { message: 'too long', type: 'invalid_request_error', code: 'context_length_exceeded' } }, 400],
    ['compat', 'an unknown name', { error: { message: 'x', code: 'upstream_failed' } }, 502],
    ['compat', 'an answer', { id: 'c', choices: [], error: { message: 'x' } }, undefined],
    ['beta', 'overloaded', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 529],
    ['beta', 'an invalid request', { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } }, 400],
    ['beta', 'an answer', { type: 'message', content: [] }, undefined],
    ['gamma', 'overloaded by code', { error: { type: 'invalid_request_error', code: 'overloaded', message: 'busy' } }, 529],
    ['gamma', 'an invalid request', { error: { type: 'invalid_request_error', code: 'invalid_prompt', message: 'no' } }, 400],
    ['gamma', 'an unknown code: the server failed', { error: { code: 'weird', message: 'x' } }, 500],
    ['gamma', 'a failed response', { id: 'r', status: 'failed', output: [], error: { code: 'server_error' } }, undefined],
    ['alpha', 'RESOURCE_EXHAUSTED', { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }, 429],
    ['alpha', 'a status name only', { error: { message: 'down', status: 'UNAVAILABLE' } }, 503],
    ['alpha', 'no error object', { error: 'quota' }, undefined],
  ])('%s: %s', (family, _name, json, status) => {
    expect(errorAnswerStatus(codecs[family], json)).toBe(status)
  })

  it("is a bad gateway's when the format's codec reads no status, or gives none that is an HTTP error", () => {
    const body = { error: { type: 'rate_limit_error', message: 'slow' } }
    const { status: _status, ...plain } = chatCodec.error
    expect(errorAnswerStatus({ ...chatCodec, error: plain }, body)).toBe(502)
    expect(errorAnswerStatus({ ...chatCodec, error: { ...plain, status: () => 200 } }, body)).toBe(502)
    expect(errorAnswerStatus(undefined, body)).toBe(502)
    expect(errorAnswerStatus(chatCodec, body)).toBe(429)
  })
})
