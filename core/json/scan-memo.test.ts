import { describe, expect, it } from 'vitest'
import { scanTopLevel } from './body-scan.ts'
import { ScanMemo } from './scan-memo.ts'

const maxDepth = 64
const turn = (i: number) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} ${'words '.repeat(40)}` })
/** An agent-like body of `turns` turns, over 16 KB. */
const body = (turns: number, model = 'm') => Buffer.from(JSON.stringify({ model, messages: Array.from({ length: turns }, (_, i) => turn(i)), tools: [{ name: 'Read', description: 'd'.repeat(20_000) }], stream: true }))

describe('ScanMemo', () => {
  it('scans a conversation\'s next turn from its last, only for the same scope', () => {
    const memo = new ScanMemo()
    expect(memo.scan(body(4), 'a', maxDepth)).toEqual(scanTopLevel(body(4), maxDepth))
    expect(memo.hits).toBe(0)
    expect(memo.scan(body(5), 'a', maxDepth)).toEqual(scanTopLevel(body(5), maxDepth))
    expect(memo.hits).toBe(1)
    // Another client key's body is never compared with this one's.
    memo.scan(body(6), 'b', maxDepth)
    expect(memo.hits).toBe(1)
    memo.scan(body(6), 'a', maxDepth)
    expect(memo.hits).toBe(2)
  })

  it('refills the buffer of the body a turn follows instead of keeping another', () => {
    const memo = new ScanMemo()
    memo.scan(body(4), 'a', maxDepth)
    const kept = memo.size
    for (let turns = 5; turns < 9; turns++) memo.scan(body(turns), 'a', maxDepth)
    expect(memo.hits).toBe(4)
    expect(memo.size).toBe(kept)
  })

  it('compares with its own copy: a client buffer changed afterwards changes nothing', () => {
    const memo = new ScanMemo()
    const first = body(4)
    memo.scan(first, 'a', maxDepth)
    first.fill(32)
    expect(memo.scan(body(5), 'a', maxDepth)).toEqual(scanTopLevel(body(5), maxDepth))
    expect(memo.hits).toBe(1)
  })

  it('keeps a few bodies per scope, then reuses the oldest one\'s buffer', () => {
    const memo = new ScanMemo(16 * 1024, undefined, 2)
    memo.scan(body(4, 'x'), 'a', maxDepth)
    memo.scan(body(4, 'y'), 'a', maxDepth)
    const kept = memo.size
    memo.scan(body(5, 'y'), 'a', maxDepth)
    // A third conversation takes the buffer of the one used longest ago (x).
    memo.scan(body(4, 'z'), 'a', maxDepth)
    expect(memo.size).toBe(kept)
    // The two kept follow on.
    memo.scan(body(6, 'y'), 'a', maxDepth)
    memo.scan(body(5, 'z'), 'a', maxDepth)
    expect(memo.hits).toBe(3)
    memo.scan(body(5, 'x'), 'a', maxDepth)
    expect(memo.hits).toBe(3)
  })

  it('leaves small bodies and bodies it cannot scan alone', () => {
    const memo = new ScanMemo()
    expect(memo.scan(Buffer.from('{"model":"m"}'), 'a', maxDepth)?.fields.has('model')).toBe(true)
    expect(memo.scan(Buffer.from(`{"model":"${'x'.repeat(20_000)}`), 'a', maxDepth)).toBeUndefined()
    expect(memo.size).toBe(0)
  })
})

describe('ScanMemo and large bodies', () => {
  it('scans a body over its size limit whole and keeps nothing of it', () => {
    const memo = new ScanMemo(16 * 1024, undefined, 4, 64 * 1024)
    const big = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(100_000) }] }))
    expect(memo.scan(big, 'a', maxDepth)).toEqual(scanTopLevel(big, maxDepth))
    expect(memo.size).toBe(0)
  })
})
