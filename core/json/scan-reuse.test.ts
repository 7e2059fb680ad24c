import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { scanTopLevel } from './body-scan.ts'
import { commonPrefix, commonSuffix, rescan } from './scan-reuse.ts'

const maxDepth = 64
const bytesOf = (value: unknown, indent?: number) => Buffer.from(JSON.stringify(value, null, indent))
/** The rescan of `next` from `previous`, which must equal the full scan of `next` whenever it is given. */
function reused(previous: Buffer, next: Buffer) {
  const scan = scanTopLevel(previous, maxDepth)!
  const result = rescan(previous, scan, next, maxDepth)
  if (result) expect(result).toEqual(scanTopLevel(next, maxDepth))
  return result
}

describe('commonPrefix / commonSuffix', () => {
  it.each([
    ['', '', 0, 0],
    ['abc', 'abc', 3, 3],
    ['abc', 'abd', 2, 0],
    ['xbc', 'abc', 0, 2],
    ['abc', 'abcdef', 3, 0],
  ])('%j / %j', (a, b, prefix, suffix) => {
    expect(commonPrefix(Buffer.from(a), Buffer.from(b))).toBe(prefix)
    expect(commonSuffix(Buffer.from(a), Buffer.from(b), Math.min(a.length, b.length))).toBe(suffix)
  })

  it('agrees with a byte loop on long buffers differing anywhere', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 0, maxLength: 3000 }), fc.nat(3000), fc.nat(255), (bytes, at, value) => {
      const a = Buffer.from(bytes)
      const b = Buffer.from(bytes)
      if (at < b.length) b[at] = value
      let prefix = 0
      while (prefix < a.length && a[prefix] === b[prefix]) prefix++
      expect(commonPrefix(a, b)).toBe(prefix)
      let suffix = 0
      while (suffix < a.length && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++
      expect(commonSuffix(a, b, a.length)).toBe(suffix)
      // The cap holds.
      expect(commonSuffix(a, a, 10)).toBe(Math.min(10, a.length))
    }))
  })
})

describe('rescan', () => {
  const long = (seed: number) => `${'x'.repeat(300)} "quoted" \\ ] } ${seed}`
  const turn = (i: number) => ({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: i % 3 ? `short ${i}` : long(i) }] })
  const body = (turns: number, extra: Record<string, unknown> = {}) => ({
    model: 'm',
    messages: Array.from({ length: turns }, (_, i) => turn(i)),
    system: [{ type: 'text', text: long(99) }],
    tools: [{ name: 'Read', input_schema: { type: 'object', properties: { path: { type: 'string', description: long(7) } } } }],
    stream: true,
    ...extra,
  })

  it('scans only the next turn of a conversation, and agrees with a full scan', () => {
    const previous = bytesOf(body(6))
    expect(reused(previous, bytesOf(body(7)))).toBeDefined()
    expect(reused(previous, bytesOf(body(9)))).toBeDefined()
    // The last message changed (an agent moves its cache marker) and one appended.
    const moved = body(7)
    ;(moved.messages[5]!.content[0] as Record<string, unknown>).cache_control = { type: 'ephemeral' }
    expect(reused(previous, bytesOf(moved))).toBeDefined()
    // A message in the middle changed: the rest of the list is met again at its new place.
    const middle = body(6)
    middle.messages[2] = { role: 'user', content: [{ type: 'text', text: 'edited, and longer than before' }] }
    expect(reused(previous, bytesOf(middle))).toBeDefined()
    // Fewer messages (a compacted history), and none at all.
    expect(reused(previous, bytesOf(body(3)))).toBeDefined()
    expect(reused(previous, bytesOf(body(0)))).toBeDefined()
  })

  it('gives the earlier scan itself for the same bytes', () => {
    const previous = bytesOf(body(4))
    const scan = scanTopLevel(previous, maxDepth)!
    expect(rescan(previous, scan, Buffer.from(previous), maxDepth)).toBe(scan)
  })

  it('is not used where the bodies differ outside one list', () => {
    const previous = bytesOf(body(6))
    expect(reused(previous, bytesOf({ ...body(6), model: 'other' }))).toBeUndefined()
    expect(reused(previous, bytesOf({ ...body(7), stream: false }))).toBeUndefined()
    expect(reused(previous, bytesOf(body(6), 2))).toBeUndefined()
    // Two lists changed.
    const both = body(7)
    both.tools = []
    expect(reused(previous, bytesOf(both))).toBeUndefined()
  })

  it.each([
    ['a trailing comma', (text: string) => text.replace(/\],"system"/, ',],"system"')],
    ['an unterminated string in the new turn', (text: string) => text.replace('"short 7"}]}]', '"short 7}]}]')],
    ['the list closed early', (text: string) => text.replace('"short 7"}]}]', '"short 7"}]}]]')],
    ['a missing comma between turns', (text: string) => text.replace('},{"role":"assistant","content":[{"type":"text","text":"short 7"', '}{"role":"assistant","content":[{"type":"text","text":"short 7"')],
  ])('%s in the changed part: not followed, as the full scan', (_, edit) => {
    const previous = bytesOf(body(7))
    const next = Buffer.from(edit(JSON.stringify(body(8))))
    expect(next.equals(bytesOf(body(8)))).toBe(false)
    expect(scanTopLevel(next, maxDepth)).toBeUndefined()
    expect(reused(previous, next)).toBeUndefined()
  })

  it.each([
    ['an element turned into an unclosed list', '{"m":[1,[,3],"x":1}'],
    ['an element turned into an unclosed string', '{"m":[1,",3],"x":1}'],
    ['the list closed by a brace', '{"m":[1,2,3},"x":1}'],
    ['an element dropped, its comma kept', '{"m":[1,,3],"x":1}'],
  ])('%s, one byte changed: not followed, as the full scan', (_, next) => {
    expect(scanTopLevel(Buffer.from(next), maxDepth)).toBeUndefined()
    expect(reused(Buffer.from('{"m":[1,2,3],"x":1}'), Buffer.from(next))).toBeUndefined()
  })

  it('follows a key written twice (the last one counts, as in JSON.parse) wherever the change is', () => {
    const text = (first: string, last: string) => Buffer.from(`{"model":"m","messages":[${first}],"stream":true,"messages":[${last}],"tools":[]}`)
    const previous = text('1,2', '3,4')
    // In the last occurrence: scanned there only.
    expect(reused(previous, text('1,2', '3,4,5'))).toBeDefined()
    // In the first occurrence (not the list the scan keeps): scanned whole.
    expect(reused(previous, text('1,2,9', '3,4'))).toBeUndefined()
    expect(scanTopLevel(text('1,2,9', '3,4'), maxDepth)?.repeated.has('messages')).toBe(true)
  })

  it('keeps the depth limit where the new turn nests too deep', () => {
    const previous = bytesOf(body(2))
    let deep: unknown = 'leaf'
    for (let i = 0; i < maxDepth; i++) deep = [deep]
    const next = bytesOf({ ...body(2), messages: [...body(2).messages, deep] })
    expect(scanTopLevel(next, maxDepth)).toBeUndefined()
    expect(reused(previous, next)).toBeUndefined()
  })

  it('agrees with a full scan for generated bodies and edits of their lists', () => {
    const element = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ minLength: 250, maxLength: 400 }), fc.constant({ type: 'text', text: long(1) }))
    const listOf = fc.array(element, { maxLength: 8 })
    const edit = fc.record({
      key: fc.constantFrom('messages', 'tools'),
      at: fc.nat(10),
      remove: fc.nat(3),
      insert: fc.array(element, { maxLength: 3 }),
    })
    fc.assert(fc.property(listOf, listOf, fc.jsonValue({ maxDepth: 2 }), fc.array(edit, { minLength: 1, maxLength: 2 }), fc.boolean(), (messages, tools, other, edits, indent) => {
      const before = { model: 'm', messages, other, tools, stream: true }
      const after = { ...before, messages: [...messages], tools: [...tools] }
      for (const change of edits) after[change.key as 'messages' | 'tools'].splice(change.at, change.remove, ...change.insert)
      const previous = bytesOf(before, indent ? 1 : undefined)
      const next = bytesOf(after, indent ? 1 : undefined)
      const result = reused(previous, next)
      // One list edited: always reused.
      if (edits.every(change => change.key === edits[0]!.key)) expect(result).toBeDefined()
    }), { numRuns: 400 })
  })

  it('agrees with a full scan when arbitrary bytes of a body change (malformed ones included)', () => {
    const text = fc.stringMatching(/^[\s\S]{0,12}$/).map(s => s + ['"', '\\', ']', '[', '{', '}', ',', ':', ' ', ''][s.length % 10])
    fc.assert(fc.property(fc.nat(400), fc.nat(40), text, fc.nat(7), (at, removed, inserted, turns) => {
      const previous = bytesOf(body(turns + 1))
      const source = previous.toString('latin1')
      const spot = at % previous.length
      const next = Buffer.from(source.slice(0, spot) + inserted + source.slice(spot + removed), 'latin1')
      const result = reused(previous, next)
      if (!scanTopLevel(next, maxDepth)) expect(result).toBeUndefined()
    }), { numRuns: 2000 })
  })
})
