import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { listsClientKey } from './rules.ts'

const idOf = (key: string) => `key-${createHash('sha256').update(key).digest('hex').slice(0, 10)}`

describe('listsClientKey', () => {
  it.each([
    ['a plain key by its value', ['dev1'], 'dev1', undefined, true],
    ['a plain key by its id', [idOf('dev1')], 'dev1', undefined, true],
    ['another key\'s id', [idOf('dev2')], 'dev1', undefined, false],
    ['a named key by its name', ['alice'], 'sk-proxy-1', 'alice', true],
    ['a named key by name only (a route preview)', ['alice'], undefined, 'alice', true],
    ['another name', ['bob'], 'sk-proxy-1', 'alice', false],
    ['no key at all', ['alice'], undefined, undefined, false],
  ])('%s', (_, list, clientKey, name, expected) => {
    expect(listsClientKey(list, { clientKey, clientKeyName: () => name })).toBe(expected)
  })
})
