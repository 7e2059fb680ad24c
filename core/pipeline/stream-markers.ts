/**
 * What a same-format stream's bytes are searched for without decoding them: the usage-only frame a client
 * did not ask for (usage-tap.ts), the model name an alias renames (passthrough-transform.ts), pings.
 */

/**
 * What may stand around a JSON key's colon: any JSON whitespace and, where the data runs over several
 * `data:` lines, a line end and the next line's `data:` (the SSE parser joins them with `\n`, whitespace
 * too). The decoder reads `"usage" : {` and a value on the next data line as it reads `"usage":{`.
 */
export const gap = '(?:\\s|data:)*'

/** A text as a pattern: its own characters, any gap on either side of each `:`. */
const patternOf = (text: string) => text.split(/\s*:\s*/).map(escapeRegExp).join(`${gap}:${gap}`)

/** Whether a text matches any of the patterns, as one regular expression: ~200 ns an event, where `String.includes` once per needle costs ~280 ns a needle. */
function anyPattern(patterns: string[]): (text: string) => boolean {
  if (!patterns.length) return () => false
  const pattern = new RegExp(patterns.join('|'))
  return text => pattern.test(text)
}

/** A text as a regular expression that matches it literally (the model rename's pattern). */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * A text as a pattern that also matches it written as JSON.parse would read it the same: a letter, digit,
 * `_` or `.` as a `\u00XX` escape (either hex case), `/` as `\/` (the alias rename's, for such upstreams).
 */
export function anySpelling(text: string): string {
  return [...text].map((char) => {
    if (char === '/') return '(?:/|\\\\/)'
    if (!/[A-Za-z0-9_.]/.test(char)) return escapeRegExp(char)
    const hex = [...char.charCodeAt(0).toString(16).padStart(4, '0')].map(digit => /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit).join('')
    return `(?:${escapeRegExp(char)}|\\\\u${hex})`
  }).join('')
}

/**
 * A letter, digit, `_` or `.` spelled as a `\u00XX` escape: JSON.parse reads `"\u0075sage"` as `usage`,
 * which no marker pattern matches. No usual writer escapes these (Python escapes non-ASCII, Go `<>&`),
 * so events that hold one are few: each is read whole, as if marked.
 */
const escapedLetterPattern = '\\\\u00(?:[4-7][0-9a-fA-F]|2[eE]|3[0-9])'
export const escapedLetter = anyPattern([escapedLetterPattern])

/** The usage-only frame of a format with a usage option has no choices: found by these (then checked whole). */
export const emptyChoices = anyPattern([`${patternOf('"choices":[')}${gap}\\]`])

/**
 * Where the next empty list (`[]`, `[ ]`, `[` and `]` on two data lines) at or after `from` closes, or -1
 * (the pattern above needs one): a one-byte search per `]`, ~20 ns each, where a multi-byte `indexOf`
 * costs ~250 ns.
 */
export function emptyListAt(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(0x5d, Math.max(from, 1)); at !== -1; at = bytes.indexOf(0x5d, at + 1)) if (bytes[gapBefore(bytes, at)] === 0x5b) return at
  return -1
}

/**
 * Where the next empty list at or after `from` that may be `choices`' value closes, or -1: its key read
 * back from the bytes is `choices`, or holds an escape. Other empty lists (`"tool_calls":[]` in every
 * chunk, as some servers write) cost a few byte reads each, not their event as text.
 */
export function emptyChoicesAt(bytes: Buffer, from: number): number {
  for (let at = emptyListAt(bytes, from); at !== -1; at = emptyListAt(bytes, at + 1)) {
    const colon = gapBefore(bytes, gapBefore(bytes, at))
    const quote = bytes[colon] === 0x3a ? gapBefore(bytes, colon) : -1
    if (quote < 0 || bytes[quote] !== 0x22) continue
    // `choices` spelled wholly with escapes is 42 bytes; a quote after a backslash is one inside the key.
    const open = bytes.lastIndexOf(0x22, quote - 1)
    if (open === -1 || quote - open > 48) continue
    const key = bytes.toString('latin1', open + 1, quote)
    if (key === 'choices' || key.includes('\\') || bytes[open - 1] === 0x5c) return at
  }
  return -1
}

/** Where the byte before `at` is, past a gap (whitespace, `data:` line starts). */
function gapBefore(bytes: Buffer, at: number): number {
  let before = at - 1
  for (;;) {
    while (before >= 0 && isSpace(bytes[before]!)) before--
    if (before < 4 || bytes[before] !== 0x3a || bytes.toString('latin1', before - 4, before) !== 'data') return before
    before -= 5
  }
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d

/** A ping event (`{"type":"ping"}`, however spaced): no part of an answer. */
export const isPing = anyPattern([patternOf('"type":"ping"')])
