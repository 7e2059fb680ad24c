import { describe, expect, it } from 'vitest'
import { statusForChatError } from './error.ts'

describe('statusForChatError (a stream error chunk, a body sent with a 200)', () => {
  it.each<[Record<string, unknown>, number]>([
    // A numeric code that is an HTTP error status is taken as it is; any other code is a name or nothing.
    [{ code: 400 }, 400], [{ code: 599 }, 599], [{ code: 529 }, 529], [{ code: 600 }, 502], [{ code: 200 }, 502],
    [{ code: '503' }, 502], [{ type: 'rate_limit_error', code: 503 }, 503], [{ type: 'server_error', code: 1234 }, 500],
    // Wording relays use in either field.
    [{ type: 'overloaded_error' }, 529], [{ type: 'server_error', code: 'overloaded' }, 529], [{ type: 'requests', code: 'rate_limit_exceeded' }, 429],
    [{ type: 'insufficient_quota' }, 429], [{ code: 'too_many_requests' }, 429],
    // A request the client got wrong stays its 400, an auth error another credential may fix a 401.
    [{ type: 'invalid_request_error', code: 'context_length_exceeded' }, 400], [{ type: 'authentication_error' }, 401],
    [{ code: 'invalid_api_key' }, 401], [{ type: 'permission_error' }, 403], [{ type: 'not_found_error' }, 404],
    [{ code: 'model_not_found', type: 'invalid_request_error' }, 404], [{ type: 'request_too_large' }, 413],
    [{ type: 'api_error' }, 500], [{ type: 'server_error', code: 'server_error' }, 500], [{ type: 'SERVER_ERROR' }, 500],
    // Gemini's OpenAI-compatible endpoint: generateContent status names.
    [{ status: 'INVALID_ARGUMENT' }, 400], [{ status: 'RESOURCE_EXHAUSTED' }, 429], [{ status: 'UNAVAILABLE' }, 503], [{ status: 'DEADLINE_EXCEEDED' }, 504],
    // Nothing known: a bad gateway. Names are never an object's own properties.
    [{ message: 'server overloaded' }, 502], [{ type: 'some_new_error' }, 502], [{ code: 'upstream_failed' }, 502],
    [{ type: 'constructor' }, 502], [{ code: '__proto__', type: 'toString' }, 502],
  ])('%j -> %i', (error, status) => {
    expect(statusForChatError(error)).toBe(status)
  })
})
