import { describe, expect, it } from 'vitest'
import { decodeError, encodeError, statusForResponsesError } from './error.ts'

describe('error encode', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'invalid_request_error'],
    [429, 'rate_limit_error'],
    [500, 'server_error'],
    [502, 'server_error'],
    [503, 'server_error'],
  ])('%i -> %s', (status, type) => {
    expect(encodeError({ status, message: 'm' })).toEqual({ error: { message: 'm', type, code: null, param: null } })
  })

  it('keeps a known type and code', () => {
    expect(encodeError({ status: 404, message: 'no model', type: 'invalid_request_error', code: 'model_not_found' })).toEqual({ error: { message: 'no model', type: 'invalid_request_error', code: 'model_not_found', param: null } })
  })
})

describe('error decode', () => {
  it.each<[string, number, unknown, Record<string, unknown>]>([
    ['API error object', 400, { error: { message: 'Bad param', type: 'invalid_request_error', param: 'input', code: 'invalid_value' } }, { status: 400, message: 'Bad param', type: 'invalid_request_error', code: 'invalid_value' }],
    ['same as JSON text', 429, '{"error":{"message":"Slow down","type":"requests","code":"rate_limit_exceeded"}}', { status: 429, message: 'Slow down', type: 'requests', code: 'rate_limit_exceeded' }],
    ['numeric code', 500, { error: { message: 'x', code: 500 } }, { status: 500, message: 'x', type: 'server_error', code: '500' }],
    ['a failed response', 500, { response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } }, { status: 500, message: 'boom', code: 'server_error' }],
    ['a stream error event', 429, { type: 'error', code: 'rate_limit_exceeded', message: 'Slow down', param: null }, { status: 429, message: 'Slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' }],
    ['gateway detail', 403, { detail: 'Forbidden' }, { status: 403, message: 'Forbidden', type: 'permission_error' }],
    ['error as string', 401, { error: 'bad key' }, { status: 401, message: 'bad key', type: 'authentication_error' }],
    ['plain text', 502, 'Bad Gateway', { status: 502, message: 'Bad Gateway', type: 'server_error' }],
    ['empty text', 503, '', { status: 503, message: 'upstream returned 503' }],
    ['null', 500, null, { status: 500, message: 'upstream returned 500' }],
    ['array', 500, [1, 2], { status: 500, message: 'upstream returned 500' }],
    ['JSON number', 500, '42', { status: 500, message: 'upstream returned 500' }],
  ])('%s', (_name, status, body, expected) => {
    expect(decodeError(status, body)).toMatchObject(expected)
  })

  it('round trips its own body', () => {
    const info = { status: 429, message: 'Too many', type: 'rate_limit_error', code: 'rate_limit_exceeded' }
    expect(decodeError(429, encodeError(info))).toEqual(info)
  })
})

describe('statusForResponsesError (a stream error event or response.failed, a body sent with a 200)', () => {
  it.each<[Record<string, unknown>, number]>([
    [{}, 500], [{ code: 'rate_limit_exceeded' }, 429], [{ code: 'insufficient_quota' }, 429], [{ code: 'invalid_prompt' }, 400],
    [{ code: 'context_length_exceeded' }, 400], [{ code: 'invalid_api_key' }, 401], [{ code: 'server_error' }, 500], [{ code: 'weird' }, 500],
    // A numeric code that is an HTTP error status is taken as it is.
    [{ code: 503 }, 503], [{ code: 1234, type: 'invalid_request_error' }, 400],
    // The code names the error more closely than the type; a type that says more than an unknown code counts.
    [{ type: 'invalid_request_error', code: 'overloaded' }, 529], [{ type: 'invalid_request_error', code: 'some_code' }, 400],
    [{ type: 'rate_limit_error', code: null }, 429], [{ type: 'tokens', code: 'rate_limit_exceeded' }, 429],
    [{ type: 'authentication_error' }, 401], [{ type: 'permission_error' }, 403], [{ code: 'model_not_found', type: 'invalid_request_error' }, 404],
    [{ code: 'server_error', type: 'invalid_request_error' }, 500], [{ code: 'model_not_found', type: 'authentication_error' }, 404],
    [{ type: 'request_too_large' }, 413], [{ code: 'image_too_large' }, 400],
    // A stream's flat `error` event: its type names the event.
    [{ type: 'error', code: 'rate_limit_exceeded', message: 'slow', param: null }, 429], [{ type: 'error', message: 'down' }, 500],
  ])('%j -> %i', (error, status) => {
    expect(statusForResponsesError(error)).toBe(status)
  })
})
