/** Where SSE events end in bytes, as sse.ts reads them: a CR/LF run of two line ends or more (`\r\n` is one), any mix, is a blank line. */
const LF = 0x0a
const CR = 0x0d
const isLineEnd = (byte: number | undefined) => byte === LF || byte === CR

/** Line ends in the CR/LF run [start, end): `\r\n` is one. */
function lineEnds(bytes: Uint8Array, start: number, end: number): number {
  let count = 0
  for (let i = start; i < end; i++, count++) if (bytes[i] === CR && bytes[i + 1] === LF && i + 1 < end) i++
  return count
}

/**
 * The first blank line at or after `from`: [where its CR/LF run starts, where it ends], or undefined.
 * `noCr`: the caller searched the bytes once and found no CR (most upstreams), so no call looks for one:
 * a walk over a buffer's events would otherwise search to its end for a CR at every event.
 */
export function blankLineAfter(bytes: Buffer, from: number, noCr = false): [number, number] | undefined {
  // The next CR and LF kept apart, each searched again only once passed: a stream of one kind never rescans for the other.
  let cr = noCr ? -1 : bytes.indexOf(CR, from)
  let lf = bytes.indexOf(LF, from)
  for (let i = from; ;) {
    if (cr !== -1 && cr < i) cr = bytes.indexOf(CR, i)
    if (lf !== -1 && lf < i) lf = bytes.indexOf(LF, i)
    const at = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf
    if (at === -1) return undefined
    let end = at + 1
    while (isLineEnd(bytes[end])) end++
    if (lineEnds(bytes, at, end) >= 2) return [at, end]
    i = end
  }
}

/** The last blank line that ends at or before `before` (not inside a CR/LF run): [its start, its end], or undefined. */
export function blankLineBefore(bytes: Buffer, before: number): [number, number] | undefined {
  if (before <= 0) return undefined
  let cr = bytes.lastIndexOf(CR, before - 1)
  let lf = bytes.lastIndexOf(LF, before - 1)
  for (let i = before - 1; i >= 0;) {
    if (cr > i) cr = bytes.lastIndexOf(CR, i)
    if (lf > i) lf = bytes.lastIndexOf(LF, i)
    const at = Math.max(lf, cr)
    if (at === -1) return undefined
    let start = at
    while (start > 0 && isLineEnd(bytes[start - 1])) start--
    if (lineEnds(bytes, start, at + 1) >= 2) return [start, at + 1]
    i = start - 1
  }
  return undefined
}

/** Where the blank line that the bytes before `end` finish with starts, or undefined when they finish without one. */
export function trailingBlankLine(bytes: Buffer, end = bytes.length): number | undefined {
  let start = end
  while (start > 0 && isLineEnd(bytes[start - 1])) start--
  return start < end && lineEnds(bytes, start, end) >= 2 ? start : undefined
}

/** Index just past the last blank line in a chunk's bytes (0: none); a CR that ends them may be half of a `\r\n` and waits, as sse.ts does. */
export function lastEventEnd(bytes: Buffer): number {
  const size = bytes.length
  // Upstreams send whole events: a chunk that ends with `\n\n` or `\r\n\r\n` ends there (no search).
  if (bytes[size - 1] === LF && (bytes[size - 2] === LF || (bytes[size - 2] === CR && bytes[size - 3] === LF && bytes[size - 4] === CR))) return size
  const end = bytes[size - 1] === CR ? size - 1 : size
  return blankLineBefore(bytes, end)?.[1] ?? 0
}
