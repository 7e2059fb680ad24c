import { describe, expect, it } from 'vitest'
import { diffCounts, foldDiff, lineDiff, type DiffLine } from '../../panel/src/line-diff.ts'
import { bodyText, mergeRows, pollFrom, pollLookbackMs, sortedKeys, noFilter, requestsQuery, timeline, type FlightRecord, type RecordSummary } from '../../panel/src/recorded.ts'
import { hashDetail, pageFromHash } from '../../panel/src/routes.ts'

/** A diff in a compact form: ' a', '-b', '+c'. */
const compact = (lines: DiffLine[]) => lines.map(line => `${line.op === 'same' ? ' ' : line.op === 'del' ? '-' : '+'}${line.text}`)

describe('lineDiff', () => {
  it.each([
    ['equal texts', 'a\nb', 'a\nb', [' a', ' b']],
    ['one line changed', 'a\nb\nc', 'a\nx\nc', [' a', '-b', '+x', ' c']],
    ['a line added at the end', 'a', 'a\nb', [' a', '+b']],
    ['a line removed at the start', 'a\nb', 'b', ['-a', ' b']],
    ['left empty', '', 'a', ['-', '+a']],
    ['interleaved', 'a\nb\nc\nd', 'b\nc\ne\nd', ['-a', ' b', ' c', '+e', ' d']],
    ['nothing in common', 'a\nb', 'c\nd', ['-a', '-b', '+c', '+d']],
  ])('%s', (_, a, b, expected) => {
    expect(compact(lineDiff(a, b))).toEqual(expected)
  })

  it('is a shortest script: the kept lines are a longest common subsequence', () => {
    const lines = lineDiff('x\na\nb\nc\ny\nd', 'a\nb\nz\nc\nd')
    expect(lines.filter(l => l.op === 'same').map(l => l.text)).toEqual(['a', 'b', 'c', 'd'])
    expect(diffCounts(lines)).toEqual({ del: 2, add: 1 })
  })

  it('rebuilds both texts from the script', () => {
    const a = '{\n  "model": "a",\n  "messages": [\n    1\n  ]\n}'
    const b = '{\n  "model": "b",\n  "stream": false,\n  "messages": [\n    1\n  ]\n}'
    const lines = lineDiff(a, b)
    expect(lines.filter(l => l.op !== 'add').map(l => l.text).join('\n')).toBe(a)
    expect(lines.filter(l => l.op !== 'del').map(l => l.text).join('\n')).toBe(b)
  })

  it('past maxEdits reports the middle as replaced instead of searching on', () => {
    const lines = lineDiff('s\na\nb\nc\ne', 's\nx\ny\nz\ne', 1)
    expect(compact(lines)).toEqual([' s', '-a', '-b', '-c', '+x', '+y', '+z', ' e'])
  })
})

describe('foldDiff', () => {
  const same = (n: number, from = 0): DiffLine[] => Array.from({ length: n }, (_, i) => ({ op: 'same', text: String(from + i) }))
  it.each([
    ['short runs stay whole', [...same(3), { op: 'del', text: 'x' }, ...same(3, 3)], 2, 7],
    ['a long run between changes keeps context on both sides', [{ op: 'add', text: 'x' }, ...same(10), { op: 'del', text: 'y' }], 2, 7],
    ['leading and trailing runs keep only the side next to the change', [...same(10), { op: 'add', text: 'x' }, ...same(10, 10)], 3, 9],
  ] as Array<[string, DiffLine[], number, number]>)('%s', (_, lines, context, length) => {
    const parts = foldDiff(lines, context)
    expect(parts).toHaveLength(length)
    const folded = parts.reduce((sum, part) => sum + (part.op === 'fold' ? part.count : 1), 0)
    expect(folded).toBe(lines.length)
  })
  it('an unchanged text folds to one part', () => {
    expect(foldDiff(same(20))).toEqual([{ op: 'fold', count: 20 }])
  })
})

describe('requests list', () => {
  it.each([
    [noFilter, {}, ''],
    [{ ...noFilter, key: ' team-a ', status: '5xx' }, { limit: 50 }, '?key=team-a&status=5xx&limit=50'],
    [{ ...noFilter, model: 'via-compat' }, { cursor: 'c1' }, '?model=via-compat&cursor=c1'],
    [{ ...noFilter, from: '2026-11-22T10:00' }, { since: 1 }, `?from=${new Date('2026-11-22T10:00').getTime()}`],
    [{ ...noFilter, from: 'nonsense', to: '2026-11-22T10:00' }, { since: 5 }, `?from=5&to=${new Date('2026-11-22T10:00').getTime()}`],
  ])('requestsQuery(%j, %j)', (filter, options, query) => {
    expect(requestsQuery(filter, options)).toBe(query)
  })

  const row = (id: string, time: number, status = 200) => ({ id, time, status }) as RecordSummary
  it('mergeRows keeps one row per id, the fresh copy, newest first', () => {
    const merged = mergeRows([row('a', 1), row('b', 3)], [row('b', 3, 500), row('c', 2)])
    expect(merged.map(r => [r.id, r.status])).toEqual([['b', 500], ['c', 200], ['a', 200]])
  })
  it('a poll adds nothing older than the oldest row shown (an older page is loaded on demand)', () => {
    expect(mergeRows([row('a', 5), row('b', 9)], [row('c', 4), row('d', 6), row('e', 10)], false).map(r => r.id)).toEqual(['e', 'b', 'd', 'a'])
    expect(mergeRows([], [row('c', 4)], false).map(r => r.id)).toEqual(['c'])
  })
  it('a poll asks from a while before the newest row, for long requests written after newer ones', () => {
    expect(pollFrom([])).toBeUndefined()
    expect(pollFrom([row('a', 1_000_000), row('b', 3_000_000)])).toBe(3_000_000 - pollLookbackMs)
  })
})

describe('request view', () => {
  it.each([
    [{ headers: {}, body: { text: '{"a":1}' } }, '{\n  "a": 1\n}'],
    [{ headers: {}, body: { text: 'plain', truncated: 9 } }, 'plain\n… 9 bytes cut at max-body-kb'],
    [{ headers: {}, stream: { events: [{ at: 1, data: 'data: 1' }, { at: 2, data: 'data: 2' }] } }, 'data: 1\n\ndata: 2'],
    [undefined, ''],
  ])('bodyText(%j)', (message, text) => expect(bodyText(message)).toBe(text))

  it.each([
    [{ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }, '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}'],
    [[3, 'x'], '[3,"x"]'],
    ['text', '"text"'],
  ])('sortedKeys(%j)', (value, json) => expect(JSON.stringify(sortedKeys(value))).toBe(json))
  it('bodyText sorts keys when asked, and leaves a body that is not JSON alone', () => {
    expect(bodyText({ headers: {}, body: { text: '{"b":1,"a":2}' } }, true)).toBe('{\n  "a": 2,\n  "b": 1\n}')
    expect(bodyText({ headers: {}, body: { text: 'b=1&a=2' } }, true)).toBe('b=1&a=2')
  })

  it('timeline puts the answering attempt\'s upstream stream and the client stream on one clock', () => {
    const record = {
      attempts: [
        { number: 0, startedAt: 0, status: 429, response: { status: 429, headers: {}, body: { text: '{}' } } },
        { number: 1, startedAt: 100, status: 200, response: { status: 200, headers: {}, stream: { events: [{ at: 5, data: 'u1' }, { at: 9, data: 'u2' }] } } },
      ],
      client: { response: { status: 200, headers: {}, stream: { events: [{ at: 5, data: 'c1' }, { at: 12.5, data: 'c2' }] } } },
    } as unknown as FlightRecord
    expect(timeline(record)).toEqual([
      { hop: 'upstream', at: 105, data: 'u1' },
      { hop: 'client', at: 105, data: 'c1' },
      { hop: 'upstream', at: 109, data: 'u2' },
      { hop: 'client', at: 112.5, data: 'c2' },
    ])
  })

  it.each([
    ['#/requests', 'requests', ''],
    ['#/requests/abc-1', 'requests', 'abc-1'],
    ['#/requests/a%2Fb', 'requests', 'a/b'],
    ['#/usage', 'usage', ''],
  ])('hash %s -> page %s, detail %j', (hash, page, detail) => {
    expect(pageFromHash(hash)).toBe(page)
    expect(hashDetail(hash)).toBe(detail)
  })
})
