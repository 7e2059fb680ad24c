import { describe, expect, it } from 'vitest'
import { createLogLimiter, linesPerWindow, windowMs } from './log-limit.ts'

describe('createLogLimiter', () => {
  it('lets the first lines of a kind through per minute and reports how many it left out', () => {
    let now = 0
    const lines: string[] = []
    const log = createLogLimiter(line => lines.push(line), () => now)
    for (let i = 0; i < linesPerWindow + 5; i++) log('client-key', `wrong key ${i}`)
    log('management', 'failed login')
    expect(lines).toHaveLength(linesPerWindow + 1)
    now += windowMs
    log('client-key', 'wrong key later')
    expect(lines.at(-1)).toBe('wrong key later (5 more like this in the previous minute were not logged)')
    log('client-key', 'and another')
    expect(lines.at(-1)).toBe('and another')
  })
})
