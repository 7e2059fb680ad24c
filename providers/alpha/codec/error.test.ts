import { describe, expect, it } from 'vitest'
import { encodeGenerateError, statusForGenerateError } from './error.ts'

describe('statusForGenerateError (a stream error chunk, a body sent with a 200)', () => {
  it.each<[Record<string, unknown>, number]>([
    // The code is the API's HTTP status; one that is no error status is not taken.
    [{ code: 429, status: 'RESOURCE_EXHAUSTED' }, 429], [{ code: 503, message: 'overloaded', status: 'UNAVAILABLE' }, 503],
    [{ code: 200, status: 'INTERNAL' }, 500], [{ code: 1234 }, 502], [{ code: '503' }, 502],
    // The status name alone: a request the client got wrong stays its 400.
    [{ status: 'RESOURCE_EXHAUSTED' }, 429], [{ status: 'UNAVAILABLE' }, 503], [{ status: 'INVALID_ARGUMENT' }, 400],
    [{ status: 'FAILED_PRECONDITION' }, 400], [{ status: 'UNAUTHENTICATED' }, 401], [{ status: 'PERMISSION_DENIED' }, 403],
    [{ status: 'NOT_FOUND' }, 404], [{ status: 'internal' }, 500], [{ status: 'DEADLINE_EXCEEDED' }, 504],
    // Nothing known: a bad gateway. Names are never an object's own properties.
    [{ status: 'ABORTED' }, 502], [{ message: 'quota' }, 502], [{ status: 'constructor' }, 502],
  ])('%j -> %i', (error, status) => {
    expect(statusForGenerateError(error)).toBe(status)
  })
})

describe('encodeGenerateError: the status name the API gives with each code', () => {
  it.each<[number, string]>([
    [400, 'INVALID_ARGUMENT'], [429, 'RESOURCE_EXHAUSTED'], [500, 'INTERNAL'], [503, 'UNAVAILABLE'],
    // A messages upstream's overloaded (529): the API's own overload is UNAVAILABLE, never INTERNAL.
    [529, 'UNAVAILABLE'], [501, 'INTERNAL'], [418, 'INVALID_ARGUMENT'],
  ])('%i -> %s', (status, name) => {
    expect(encodeGenerateError({ status, message: 'm' })).toEqual({ error: { code: status, message: 'm', status: name } })
  })
})
