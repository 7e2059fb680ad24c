import { isAscii } from 'node:buffer'

/**
 * A JSON body's bytes -> text for JSON.parse, kept one byte per character. Agents' bodies are ASCII but
 * for a few characters (an em dash in a system prompt); one of those makes the whole decoded string
 * two bytes per character, so an 80 KB body becomes a 160 KB string, over V8's 128 KB large-object
 * threshold, where every allocation faults fresh pages in: measured 750 µs to build it (15 µs for the
 * ASCII text), on every request. In valid JSON a non-ASCII character can only stand inside a string,
 * where its `\uXXXX` escape means the same, so such runs are written as escapes: JSON.parse gives the
 * very same value, and the client's own bytes still go upstream untouched (only this text changes).
 */
export function jsonTextOf(bytes: Buffer): string {
  if (bytes.length < 4096) return bytes.toString('utf8')
  // All ASCII, as agents' bodies nearly always are: one native check (SIMD, ~17 µs per 1.4 MB) instead of
  // the loop below (~290 µs per 1.4 MB of base64).
  if (isAscii(bytes)) return bytes.toString('latin1')
  let high = firstHighByte(bytes, 0)
  if (high === -1) return bytes.toString('latin1')
  const pieces: string[] = []
  let start = 0
  while (high !== -1) {
    // `\` before a raw character is invalid JSON: escaping would make it valid. Decode as it is.
    if (bytes[high - 1] === 0x5c) return bytes.toString('utf8')
    let end = high
    while (end < bytes.length && bytes[end]! >= 0x80) end++
    pieces.push(bytes.toString('latin1', start, high), escapeNonAscii(bytes.toString('utf8', high, end)))
    start = end
    // Text that is mostly not ASCII: plain decoding is as good.
    if (pieces.length > 512) return bytes.toString('utf8')
    high = firstHighByte(bytes, end)
  }
  pieces.push(bytes.toString('latin1', start))
  return pieces.join('')
}

/** `\uXXXX` for every UTF-16 unit (surrogate pairs as two escapes, as JSON writes them). */
function escapeNonAscii(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`
  return out
}

/** Index of the first byte >= 0x80 from `from`, or -1; four bytes at a time where aligned. */
function firstHighByte(bytes: Buffer, from: number): number {
  let i = from
  const length = bytes.length
  while (i < length && (bytes.byteOffset + i) % 4 !== 0) {
    if (bytes[i]! >= 0x80) return i
    i++
  }
  const words = (length - i) >>> 2
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words)
    for (let w = 0; w < words; w++) {
      if ((view[w]! & 0x80808080) !== 0) {
        const at = i + w * 4
        for (let k = at; k < at + 4; k++) if (bytes[k]! >= 0x80) return k
      }
    }
    i += words * 4
  }
  for (; i < length; i++) if (bytes[i]! >= 0x80) return i
  return -1
}
