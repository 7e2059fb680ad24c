import { describe, expect, it } from 'vitest'
import { requestOutcome } from './outcome.ts'

describe('requestOutcome', () => {
  it.each([
    [200, true, 'ok'],
    [200, false, 'ok'],
    [400, false, 'client'], // bad JSON, before any upstream
    [401, false, 'client'], // wrong client key
    [404, false, 'client'], // unknown model
    [429, false, 'client'], // the client key's own limit
    [499, true, 'client'], // the client went away
    [400, true, 'client'], // the upstream refused what the client sent
    [429, true, 'upstream'],
    [401, true, 'upstream'], // the upstream refused the credential
    [502, true, 'upstream'],
    [503, false, 'proxy'], // no credential could be tried
    [500, false, 'proxy'],
  ] as const)('status %i, served %s: %s', (status, served, outcome) => {
    expect(requestOutcome(status, served)).toBe(outcome)
  })

  it('a stream the upstream broke after its 200 (a 499 like a client that left) is the upstream\'s failure', () => {
    expect(requestOutcome(499, true, true)).toBe('upstream')
    expect(requestOutcome(499, true, false)).toBe('client')
  })
})
