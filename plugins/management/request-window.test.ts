import { describe, expect, it } from 'vitest'
import { RequestWindow } from './request-window.ts'

describe('RequestWindow', () => {
  const t0 = 1_700_000_000_000
  it.each([
    // [offsets (ms) of requests, failed flags, now offset, span, expected]
    [[0, 10, 20], [false, true, false], 30, 60, { requests: 3, errors: 1, clientMistakes: 0 }],
    [[0, 1000, 59_000], [false, false, false], 60_500, 60, { requests: 2, errors: 0, clientMistakes: 0 }],
    [[0, 299_000], [true, true], 299_500, 300, { requests: 2, errors: 2, clientMistakes: 0 }],
    [[0, 300_000], [true, false], 300_000, 300, { requests: 1, errors: 0, clientMistakes: 0 }],
    [[], [], 0, 60, { requests: 0, errors: 0, clientMistakes: 0 }],
  ] as const)('requests at %j count as expected', (offsets, failed, now, span, expected) => {
    const window = new RequestWindow(300)
    offsets.forEach((offset, i) => window.add(t0 + offset, failed[i]!))
    expect(window.count(t0 + now, span)).toEqual(expected)
  })

  it('counts client mistakes apart from errors', () => {
    const window = new RequestWindow(300)
    window.add(t0, false, true)
    window.add(t0, true)
    window.add(t0, false)
    expect(window.count(t0, 60)).toEqual({ requests: 3, errors: 1, clientMistakes: 1 })
  })
})
