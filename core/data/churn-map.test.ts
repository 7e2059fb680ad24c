import { describe, expect, it } from 'vitest'
import { ChurnMap } from './churn-map.ts'

describe('ChurnMap', () => {
  it('behaves as a map for string and number keys, prototype names included', () => {
    const map = new ChurnMap<number>()
    for (const [key, value] of [['a', 1], [2, 2], ['__proto__', 3], ['toString', 4], ['constructor', 5]] as const) map.set(key, value)
    expect(map.size).toBe(5)
    expect([map.get('a'), map.get(2), map.get('2'), map.get('__proto__'), map.get('toString')]).toEqual([1, 2, 2, 3, 4])
    expect(map.get('hasOwnProperty')).toBeUndefined()
    expect(map.has('hasOwnProperty')).toBe(false)
    map.set('a', 10)
    expect(map.size).toBe(5)
    expect(map.delete('a')).toBe(true)
    expect(map.delete('a')).toBe(false)
    expect(map.size).toBe(4)
    expect(Object.fromEntries(map.entries())).toEqual({ 2: 2, ['__proto__']: 3, toString: 4, constructor: 5 })
  })

  it('lets a loop delete what it walks, and clears', () => {
    const map = new ChurnMap<string>()
    for (let i = 0; i < 50; i++) map.set(`k${i}`, `v${i}`)
    for (const [key] of map.entries()) if (Number(key.slice(1)) % 2) map.delete(key)
    expect(map.size).toBe(25)
    expect([...map.values()].every(value => Number(value.slice(1)) % 2 === 0)).toBe(true)
    map.clear()
    expect([map.size, [...map.entries()]]).toEqual([0, []])
  })
})
