import { CLOSE_BRACKET, COMMA, firstLongStringAt, skipSpace, valueEnd, type TopLevelScan, type ValueRange } from './body-scan.ts'

/**
 * How many bytes `a` and `b` share at their start. A binary search over `Buffer.compare` of ranges
 * (memcmp): about the shared length in bytes compared, in ~log n calls. 150 KB compare in ~2 µs here,
 * where scanning them costs ~35.
 */
export function commonPrefix(a: Buffer, b: Buffer): number {
  // Invariant: a[0, low) equals b[0, low); the first difference is before `high`.
  let low = 0
  let high = Math.min(a.length, b.length)
  while (high - low > 32) {
    const mid = (low + high) >>> 1
    if (a.compare(b, low, mid, low, mid) === 0) low = mid
    else high = mid
  }
  while (low < high && a[low] === b[low]) low++
  return low
}

/** How many bytes `a` and `b` share at their end, `max` at most. */
export function commonSuffix(a: Buffer, b: Buffer, max: number): number {
  const aEnd = a.length
  const bEnd = b.length
  let low = 0
  let high = Math.min(max, aEnd, bEnd)
  while (high - low > 32) {
    const mid = (low + high) >>> 1
    if (a.compare(b, bEnd - mid, bEnd - low, aEnd - mid, aEnd - low) === 0) low = mid
    else high = mid
  }
  while (low < high && a[aEnd - 1 - low] === b[bEnd - 1 - low]) low++
  return low
}

/** The earlier `]` (where the rest rejoins the earlier scan) when the list closes at `at` where it closed before, moved by `shift`; else -1. */
const closes = (list: ValueRange, at: number, shift: number) => at === list.end - 1 + shift ? list.end - 1 : -1

const shifted = (range: ValueRange, by: number): ValueRange => ({ start: range.start + by, end: range.end + by })

/**
 * The scan of `bytes` (core/http/body-scan.ts) worked out from the scan of an earlier body, when the two
 * differ only inside one top-level list: an agent's next turn has the same model, system prompt and tools
 * as its last, and a history a turn longer. Only the changed elements of that list are scanned; what
 * comes before them is the earlier scan's, what comes after it shifted by the change in length.
 * Undefined when the bodies differ anywhere else (the caller scans the whole body then).
 *
 * Why it is the same as a full scan: the scan is a walk whose state at the start of a list element (or
 * just after one) is only "in list `key` of the top level". The bytes before the rescanned part are the
 * same, so the walk reaches it in that state; the bytes after the point where it meets an earlier element
 * again (or the list's `]`) are the same, so from there it does what it did before.
 * `previous` and `scan` are read, never changed. `shared.prefix` is set to the bytes both begin with.
 */
export function rescan(previous: Buffer, scan: TopLevelScan, bytes: Buffer, maxDepth: number, shared?: { prefix: number }): TopLevelScan | undefined {
  const prefix = commonPrefix(previous, bytes)
  if (shared) shared.prefix = prefix
  if (prefix === previous.length && prefix === bytes.length) return scan
  const suffix = commonSuffix(previous, bytes, Math.min(previous.length, bytes.length) - prefix)
  // The change: previous[prefix, changedEnd) became bytes[prefix, changedEnd + shift).
  const changedEnd = previous.length - suffix
  for (const [key, elements] of scan.lists ?? []) {
    const list = scan.fields.get(key)!
    // Its `[` before the change, its `]` after it.
    if (list.start < prefix && list.end - 1 >= changedEnd) return rescanList(scan, key, list, elements, bytes, bytes.length - previous.length, prefix, changedEnd, maxDepth)
  }
  return undefined
}

function rescanList(scan: TopLevelScan, key: string, list: ValueRange, elements: ValueRange[], bytes: Buffer, shift: number, prefix: number, changedEnd: number, maxDepth: number): TopLevelScan | undefined {
  // The elements wholly before the change are kept; the walk resumes just after the last of them.
  let first = 0
  while (first < elements.length && elements[first]!.end <= prefix) first++
  // Earlier elements wholly after the change: where the walk may meet the earlier scan again.
  let next = first
  while (next < elements.length && elements[next]!.start < changedEnd) next++
  const fresh = elements.slice(0, first)
  const longs: number[] = []
  let i = skipSpace(bytes, first ? elements[first - 1]!.end : list.start + 1)
  // Where the rest is the earlier scan's again: the list's `]`, or an earlier element met at its new place.
  let rejoin: number | undefined
  if (bytes[i] === CLOSE_BRACKET) rejoin = closes(list, i, shift)
  else if (first) {
    if (bytes[i] !== COMMA) return undefined
    i = skipSpace(bytes, i + 1)
  }
  // Each turn of the loop expects an element at `i` (a `]` there is a trailing comma: not followed).
  // Elements of the top level's lists sit at depth 2 (the body's object is depth 1), as in a full scan.
  while (rejoin === undefined) {
    while (next < elements.length && elements[next]!.start + shift < i) next++
    if (next < elements.length && elements[next]!.start + shift === i) {
      for (let k = next; k < elements.length; k++) fresh.push(shifted(elements[k]!, shift))
      rejoin = elements[next]!.start
      break
    }
    const end = valueEnd(bytes, i, 2, maxDepth, longs)
    if (end === -1 || end === i) return undefined
    fresh.push({ start: i, end })
    i = skipSpace(bytes, end)
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1)
    else if (bytes[i] === CLOSE_BRACKET) rejoin = closes(list, i, shift)
    else return undefined
  }
  if (rejoin === -1) return undefined

  const resumedAt = first ? elements[first - 1]!.end : list.start + 1
  const before = scan.longStrings
  const keptUntil = firstLongStringAt(before, resumedAt)
  const rejoinedAt = firstLongStringAt(before, rejoin)
  const longStrings = before.slice(0, keptUntil)
  for (const at of longs) longStrings.push(at)
  for (let k = rejoinedAt; k < before.length; k++) longStrings.push(before[k]! + shift)

  const fields = new Map<string, ValueRange>()
  for (const [name, range] of scan.fields) fields.set(name, name === key ? { start: range.start, end: range.end + shift } : range.start > list.start ? shifted(range, shift) : range)
  const lists = new Map<string, ValueRange[]>()
  for (const [name, items] of scan.lists!) {
    lists.set(name, name === key ? fresh : scan.fields.get(name)!.start > list.start ? items.map(item => shifted(item, shift)) : items)
  }
  return { fields, repeated: scan.repeated, longStrings, lists }
}
