import { describe, expect, it } from 'vitest'
import { maskValues } from 'model-proxy/kit/access'
import { holdsSecret, maskRecord } from './mask.ts'

const key = 'sk-upstream-1234567890abcdef'

describe('maskRecord', () => {
  it('masks a known secret in any string of the record, keeps the rest as it is', () => {
    const record = { a: `Bearer ${key}`, list: ['x', { deep: `echo ${key} echo` }], n: 3, none: null, ok: true }
    expect(maskRecord(record, [undefined, 'abc', key])).toEqual({ a: 'Bearer sk-u...cdef', list: ['x', { deep: 'echo sk-u...cdef echo' }], n: 3, none: null, ok: true })
  })

  it('leaves a record without secrets untouched (the same object when there is nothing to look for)', () => {
    const record = { a: 'b' }
    expect(maskRecord(record, [undefined, ''])).toBe(record)
    expect(maskRecord(record, [key])).toEqual(record)
  })

  it.each([
    ['no secret here', 'no secret here'],
    [`${key}${key}`, 'sk-u...cdefsk-u...cdef'],
    ['sk-upstream-1234', 'sk-upstream-1234'],
  ])('maskValues(%s)', (text, expected) => {
    expect(maskValues(text, [key])).toBe(expected)
  })
})

describe('holdsSecret', () => {
  it.each([
    [{ a: `x ${key} y` }, [key], true],
    [{ a: 'nothing' }, [key], false],
    [{ a: 'say "hi\\there"' }, ['"hi\\there"'], true],
    [{ a: 'abc' }, [undefined, '', 'ab'], false],
    // An upstream's redirect or header quoting the key encoded: the record must still be masked.
    [{ location: `https://x.example/?key=${encodeURIComponent(`${key}/+`)}` }, [`${key}/+`], true],
    [{ 'x-debug': Buffer.from(`Bearer ${key}`).toString('base64') }, [key], true],
  ])('%j holds one of %j: %s', (value, secrets, expected) => {
    expect(holdsSecret(JSON.stringify(value), secrets)).toBe(expected)
  })
})
