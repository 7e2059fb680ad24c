import { describe, expect, it } from 'vitest'
import { derivedOf, joined, minDerivedLength, sliced } from './derived-strings.ts'

const long = (seed: string) => `${seed}${'A'.repeat(minDerivedLength)}`

describe('derived strings', () => {
  it('notes long joins and slices, and finds them by the string itself', () => {
    const tail = long('t')
    const url = joined('data:image/png;base64,', tail)
    expect(url).toBe(`data:image/png;base64,${tail}`)
    expect(derivedOf(url)).toEqual({ kind: 'join', head: 'data:image/png;base64,', tail })
    const cut = sliced(url, 22)
    expect(cut).toBe(tail)
    expect(derivedOf(cut)).toEqual({ kind: 'slice', whole: url, from: 22 })
    // Short ones are not worth noting.
    expect(derivedOf(joined('a', 'b'))).toBeUndefined()
    expect(derivedOf(long('never noted'))).toBeUndefined()
  })

  it('forgets what was noted sixteen strings ago', () => {
    const first = joined('h', long('first'))
    for (let i = 0; i < 16; i++) joined('h', long(`other ${i}`))
    expect(derivedOf(first)).toBeUndefined()
  })
})
