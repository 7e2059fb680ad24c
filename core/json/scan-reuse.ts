import { CLOSE_BRACKET, elementsFrom, firstLongStringAt, type TopLevelScan, type ValueRange } from './body-scan.ts'

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

const shifted = (range: ValueRange, by: number): ValueRange => ({ start: range.start + by, end: range.end + by })

/**
 * The scan of `bytes` (core/json/body-scan.ts) worked out from the scan of an earlier body, when the two
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
  const resumedAt = first ? elements[first - 1]!.end : list.start + 1
  // Walked as a full scan walks the list (elements at depth 2: the body's object is depth 1), stopping at
  // an earlier element met at its new place: from there on everything is the earlier scan's, shifted.
  const meets = (start: number) => {
    while (next < elements.length && elements[next]!.start + shift < start) next++
    return next < elements.length && elements[next]!.start + shift === start
  }
  const at = elementsFrom(bytes, resumedAt, first > 0, 2, maxDepth, fresh, longs, meets)
  if (at === -1) return undefined
  let rejoin: number
  if (bytes[at] === CLOSE_BRACKET) {
    // The list ends where it ended before (moved by the change), or the rest is not the earlier rest.
    if (at !== list.end - 1 + shift) return undefined
    rejoin = list.end - 1
  } else {
    for (let k = next; k < elements.length; k++) fresh.push(shifted(elements[k]!, shift))
    rejoin = elements[next]!.start
  }

  const before = scan.longStrings
  const keptUntil = firstLongStringAt(before, resumedAt)
  const rejoinedAt = firstLongStringAt(before, rejoin)
  const longStrings = before.slice(0, keptUntil)
  for (const offset of longs) longStrings.push(offset)
  for (let k = rejoinedAt; k < before.length; k++) longStrings.push(before[k]! + shift)

  const fields = new Map<string, ValueRange>()
  for (const [name, range] of scan.fields) fields.set(name, name === key ? { start: range.start, end: range.end + shift } : range.start > list.start ? shifted(range, shift) : range)
  const lists = new Map<string, ValueRange[]>()
  for (const [name, items] of scan.lists!) {
    lists.set(name, name === key ? fresh : scan.fields.get(name)!.start > list.start ? items.map(item => shifted(item, shift)) : items)
  }
  return { fields, repeated: scan.repeated, longStrings, lists }
}
