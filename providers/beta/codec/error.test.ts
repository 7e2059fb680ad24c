import { describe, expect, it } from 'vitest'
import { statusForMessagesError } from './error.ts'

describe('statusForMessagesError (a stream error event, a body sent with a 200)', () => {
  it.each<[Record<string, unknown>, number]>([
    // Each type as the API answers it: a request the client got wrong stays its 400, auth 401, overloaded 529.
    [{ type: 'invalid_request_error', message: 'prompt is too long' }, 400], [{ type: 'authentication_error' }, 401],
    [{ type: 'billing_error' }, 402], [{ type: 'permission_error' }, 403], [{ type: 'not_found_error' }, 404],
    [{ type: 'request_too_large' }, 413], [{ type: 'rate_limit_error' }, 429], [{ type: 'api_error' }, 500],
    [{ type: 'overloaded_error' }, 529],
    // A relay's numeric code, and its own types by their wording.
    [{ type: 'api_error', code: 503 }, 503], [{ type: 'api_error', code: 200 }, 500], [{ type: 'upstream_overloaded' }, 529],
    [{ type: 'rate_limit_exceeded' }, 429], [{ type: 'insufficient_quota' }, 429], [{ type: 'RESOURCE_EXHAUSTED' }, 429],
    // Nothing known: a bad gateway. Types are never an object's own properties.
    [{ message: 'server overloaded' }, 502], [{ type: 'some_new_error' }, 502], [{ type: 'constructor' }, 502], [{ type: 42 }, 502],
  ])('%j -> %i', (error, status) => {
    expect(statusForMessagesError(error)).toBe(status)
  })
})
