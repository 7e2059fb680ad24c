import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { clientKeyId, createKeyMatcher, readClientKey } from './client-key.ts'

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

describe('clientKeyId', () => {
  it.each([
    ['dev1', 'key-cf4b9c1f5e'],
    ['dev2', 'key-45366849ff'],
  ])('%s -> an id of its sha256, short keys apart', (key, id) => {
    expect(clientKeyId(key)).toMatch(/^key-[0-9a-f]{10}$/)
    expect(clientKeyId(key)).toBe(id)
    expect(clientKeyId(key)).toBe(id) // remembered: the same again
  })
  it('is the start of the sha256: a named key\'s stored hash begins with it', () => {
    expect(clientKeyId('sk-proxy-abc')).toBe(`key-${createHash('sha256').update('sk-proxy-abc').digest('hex').slice(0, 10)}`)
  })
})
