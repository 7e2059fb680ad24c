import { describe, expect, it } from 'vitest'
import { endedStatus } from './hooks.ts'

describe('endedStatus', () => {
  it.each<[string, { status: number; error?: string }, number]>([
    ['an answer', { status: 200 }, 200],
    ['a stream that failed after its 200', { status: 200, error: 'upstream stream broke' }, 499],
    ['a failed request keeps its error status', { status: 503, error: 'overloaded' }, 503],
    ['an error status without a message', { status: 429 }, 429],
  ])('%s', (_name, ctx, status) => {
    expect(endedStatus(ctx)).toBe(status)
  })
})
