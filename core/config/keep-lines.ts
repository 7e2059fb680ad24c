import { parseDocument, type Document } from 'yaml'

/**
 * A document as the config file is written: no line folded at the library's default 80 columns. A line
 * the file has longer (a flow list of providers, a quoted note) came back over several lines, so the
 * file's lines no longer paired with the library's and every line of the file was written anew.
 */
export const configText = (doc: Document): string => doc.toString({ lineWidth: 0 })

/**
 * A config written anew (a management edit, serialized by the YAML library) with every line it did not
 * change kept as the file had it. The library writes `["claude-*"]` as `[ "claude-*" ]`, collapses
 * spacing before comments and the like: in a file kept in git, each write would show unrelated diffs.
 *
 * `before` serialized by the same library (`normalized`) has one line per line of `before` when nothing
 * was reflowed (checked: the two lines match but for whitespace). Lines of `after` that a diff finds
 * unchanged from `normalized` are then written as in `before`; the rest as the library wrote them.
 * When the lines do not pair up, `after` is returned as it is.
 */
export function keepUntouchedLines(before: string, after: string): string {
  let normalized: string
  try {
    normalized = configText(parseDocument(before))
  } catch {
    return after
  }
  const own = before.split('\n')
  const old = normalized.split('\n')
  const next = after.split('\n')
  if (own.length !== old.length || own.some((line, i) => squeeze(line) !== squeeze(old[i]!))) return after
  const kept = unchangedPairs(old, next)
  return next.map((line, j) => kept.has(j) ? own[kept.get(j)!]! : line).join('\n')
}

const squeeze = (line: string) => line.replace(/\s+/g, '')

/** Lines of `next` (by index) equal to a line of `old` in a longest common subsequence: next index -> old index. */
function unchangedPairs(old: string[], next: string[]): Map<number, number> {
  const pairs = new Map<number, number>()
  // The common head and tail first: a write usually changes a few lines in the middle.
  let head = 0
  while (head < old.length && head < next.length && old[head] === next[head]) pairs.set(head, head++)
  let tail = 0
  while (tail < old.length - head && tail < next.length - head && old[old.length - 1 - tail] === next[next.length - 1 - tail]) {
    pairs.set(next.length - 1 - tail, old.length - 1 - tail)
    tail++
  }
  const a = old.slice(head, old.length - tail)
  const b = next.slice(head, next.length - tail)
  // Classic LCS table over what is left (a config's changed middle: small).
  const width = b.length + 1
  const table = new Uint32Array((a.length + 1) * width)
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!)
    }
  }
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      pairs.set(head + j, head + i)
      i++
      j++
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++
    else j++
  }
  return pairs
}
