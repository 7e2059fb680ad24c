import { describe, expect, it } from 'vitest'
import { createKeyMatcher, readClientKey } from './client-key.ts'

describe('createKeyMatcher', () => {
  const match = createKeyMatcher(['sk-alpha', 'sk-beta'])
  it.each([
    ['sk-alpha', 'sk-alpha'],
    ['sk-beta', 'sk-beta'],
    ['sk-alpha', 'sk-alpha'], // second time: remembered
    ['sk-alph', undefined],
    ['sk-alpha ', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j -> %j', (candidate, expected) => {
    expect(match(candidate)).toBe(expected)
  })

  it('a new matcher (config reload) forgets keys that were removed', () => {
    const before = createKeyMatcher(['sk-old'])
    expect(before('sk-old')).toBe('sk-old')
    const after = createKeyMatcher(['sk-new'])
    expect(after('sk-old')).toBeUndefined()
  })
})

describe('readClientKey', () => {
  const url = new URL('http://x/v1beta/models/m:generateContent?key=from-query')
  it.each([
    [{ authorization: 'Bearer sk-1' }, 'sk-1'],
    [{ authorization: 'bearer   sk-2 ' }, 'sk-2'],
    [{ 'x-api-key': 'sk-3' }, 'sk-3'],
    [{ 'x-goog-api-key': 'sk-4' }, 'sk-4'],
    [{}, 'from-query'],
  ])('%j -> %s', (headers, expected) => {
    expect(readClientKey(new Headers(headers), url)).toBe(expected)
  })
})
