const QUOTE = 34
const BACKSLASH = 92
const COLON = 58

/**
 * Whether the client's own bytes may go upstream instead of our serialization of what we parsed. The
 * route was picked by the last top-level `model` key (JSON.parse keeps the last); an upstream parser that
 * keeps the first of two would run another model than the one routed (and excluded) here. So a body whose
 * top level names `model` more than once (escaped spellings such as `"mod\u0065l"` included) is
 * re-serialized. Only the top level counts: agents' tool schemas have `model` properties, and refusing
 * their bytes for that cost a JSON.stringify of the whole 80-150 KB body per request.
 * A format that names the model in the URL (`WireCodec.modelIn`) has no such key (generateContent's
 * `"role":"model"` turns are none).
 */
export function clientBytesUsable(text: string, modelInBody: boolean): boolean {
  if (!modelInBody) return true
  const first = text.indexOf('"model"')
  // The common cases decided without a scan: no key at all, or a single spelling anywhere and no escapes.
  if (first === -1 && text.indexOf('\\u') === -1) return true
  if (first !== -1 && text.indexOf('"model"', first + 7) === -1 && text.indexOf('\\u') === -1) return true
  return topLevelModelKeys(text) < 2
}

/** How many top-level keys of a JSON object text decode to `model`. Strings are skipped by indexOf jumps. */
export function topLevelModelKeys(text: string): number {
  let depth = 0
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      const end = closingQuote(text, i + 1)
      if (end === -1) return count
      if (depth === 1 && isKey(text, end + 1) && keyIsModel(text, i, end)) count++
      i = end
    } else if (c === 123 || c === 91) {
      depth++
    } else if (c === 125 || c === 93) {
      depth--
    }
  }
  return count
}

/** Index of the quote that ends a string starting at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  let j = from
  for (;;) {
    j = text.indexOf('"', j)
    if (j === -1) return -1
    let backslashes = 0
    while (text.charCodeAt(j - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return j
    j++
  }
}

/** A string followed by `:` (after white space) is a key. */
function isKey(text: string, from: number): boolean {
  let k = from
  while (k < text.length && text.charCodeAt(k) <= 32) k++
  return text.charCodeAt(k) === COLON
}

function keyIsModel(text: string, open: number, close: number): boolean {
  if (close - open === 6) return text.startsWith('model', open + 1)
  // Escapes can spell `model` longer (`"mod\u0065l"`): decode those, as the upstream's parser would.
  const escape = text.indexOf('\\', open)
  if (escape === -1 || escape > close || close - open > 64) return false
  try {
    return JSON.parse(text.slice(open, close + 1)) === 'model'
  } catch {
    return false
  }
}
