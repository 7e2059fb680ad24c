import { describe, expect, it } from 'vitest'
import { itemId, responseId } from './ids.ts'

describe('ids', () => {
  it.each([
    ['resp_abc123', 'resp_abc123'],
    ['chatcmpl-xyz', 'resp_chatcmpl-xyz'],
    ['msg_01 A/b', 'resp_msg_01Ab'],
  ])('responseId(%s) = %s', (input, expected) => {
    expect(responseId(input)).toBe(expected)
  })

  it('makes a fresh resp_ id when there is none', () => {
    expect(responseId()).toMatch(/^resp_[0-9a-f]{32}$/)
    expect(responseId('')).not.toBe(responseId(''))
  })

  it.each([
    ['message', 'msg_abc_0'],
    ['function_call', 'fc_abc_0'],
    ['reasoning', 'rs_abc_0'],
  ] as const)('%s items are %s, the same every time', (kind, expected) => {
    expect(itemId(kind, 'resp_abc', 0)).toBe(expected)
    expect(itemId(kind, 'resp_abc', 0)).toBe(itemId(kind, 'resp_abc', 0))
  })
})
