import { describe, expect, it } from 'vitest'
import { jsonDeeperThan, valueDeeperThan } from './json-depth.ts'

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

describe('jsonDeeperThan', () => {
  it.each([
    ['flat object', '{"a":1,"b":[1,2,{"c":3}]}', 10, false],
    ['arrays at the limit', arrays(10), 10, false],
    ['arrays past the limit', arrays(11), 10, true],
    ['objects past the limit', objects(11), 10, true],
    ['brackets inside strings do not count', `{"a":"${'['.repeat(50)}"}`, 10, false],
    ['escaped quotes keep the string open', `{"a":"\\"${'{'.repeat(50)}\\\\"}`, 10, false],
    ['an escaped backslash closes the string', `{"a":"x\\\\",${'"b":['.repeat(1)}${arrays(11)}]}`, 10, true],
    ['an unterminated string', `{"a":"${'['.repeat(50)}`, 10, false],
    ['never closed', '['.repeat(20), 10, true],
    ['shorter than the limit', '[[[', 10, false],
  ])('%s', (_name, text, limit, deeper) => {
    expect(jsonDeeperThan(text, limit)).toBe(deeper)
  })
})

describe('valueDeeperThan', () => {
  it.each([
    [{ a: [1, { b: 2 }] }, 10, false],
    [JSON.parse(arrays(10)), 10, false],
    [JSON.parse(arrays(11)), 10, true],
    [JSON.parse(objects(5000)), 256, true],
    ['scalar', 0, false],
  ])('%#', (value, limit, deeper) => {
    expect(valueDeeperThan(value, limit)).toBe(deeper)
  })
})
