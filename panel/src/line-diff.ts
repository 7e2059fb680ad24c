/** One line of a diff: kept in both, only in the left text (`del`), or only in the right (`add`). */
export interface DiffLine { op: 'same' | 'del' | 'add'; text: string }

/** A run of lines to show, or a count of unchanged lines folded away between two runs. */
export type DiffPart = DiffLine | { op: 'fold'; count: number }

/**
 * Line diff of `a` against `b` (Myers' shortest edit script). Beyond `maxEdits` edits (two bodies in
 * unrelated formats can differ everywhere) it stops searching and reports the middle as replaced,
 * so a large record never stalls the page.
 */
export function lineDiff(a: string, b: string, maxEdits = 2000): DiffLine[] {
  const left = a.split('\n')
  const right = b.split('\n')
  let head = 0
  while (head < left.length && head < right.length && left[head] === right[head]) head++
  let tail = 0
  while (tail < left.length - head && tail < right.length - head && left[left.length - 1 - tail] === right[right.length - 1 - tail]) tail++
  const same = (text: string): DiffLine => ({ op: 'same', text })
  const middle = shortestEdit(left.slice(head, left.length - tail), right.slice(head, right.length - tail), maxEdits)
  return [...left.slice(0, head).map(same), ...middle, ...left.slice(left.length - tail).map(same)]
}

function shortestEdit(a: string[], b: string[], maxEdits: number): DiffLine[] {
  const n = a.length
  const m = b.length
  const replaced = (): DiffLine[] => [...a.map(text => ({ op: 'del' as const, text })), ...b.map(text => ({ op: 'add' as const, text }))]
  if (!n || !m) return replaced()
  const offset = n + m
  const v = new Int32Array(2 * offset + 2)
  const trace: Int32Array[] = []
  for (let d = 0; d <= Math.min(offset, maxEdits); d++) {
    trace.push(v.slice())
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) { x++; y++ }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, a, b, offset)
    }
  }
  return replaced()
}

/** Walks the saved frontiers back from the end, turning each step into a kept, deleted or added line. */
function backtrack(trace: Int32Array[], a: string[], b: string[], offset: number): DiffLine[] {
  const lines: DiffLine[] = []
  let x = a.length
  let y = b.length
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!
    const k = x - y
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1
    const prevX = v[offset + prevK]!
    const prevY = prevX - prevK
    while (x > prevX && y > prevY) {
      lines.push({ op: 'same', text: a[--x]! })
      y--
    }
    if (d > 0) {
      if (x === prevX) lines.push({ op: 'add', text: b[--y]! })
      else lines.push({ op: 'del', text: a[--x]! })
    }
  }
  return lines.reverse()
}

/** Unchanged runs longer than twice `context` are folded, keeping `context` lines next to each change. */
export function foldDiff(lines: DiffLine[], context = 3): DiffPart[] {
  const parts: DiffPart[] = []
  let i = 0
  while (i < lines.length) {
    if (lines[i]!.op !== 'same') { parts.push(lines[i++]!); continue }
    let end = i
    while (end < lines.length && lines[end]!.op === 'same') end++
    const keepBefore = i === 0 ? 0 : context
    const keepAfter = end === lines.length ? 0 : context
    const run = end - i
    if (run > keepBefore + keepAfter + 1) {
      parts.push(...lines.slice(i, i + keepBefore), { op: 'fold', count: run - keepBefore - keepAfter }, ...lines.slice(end - keepAfter, end))
    } else parts.push(...lines.slice(i, end))
    i = end
  }
  return parts
}

/** Lines only on the left and only on the right. */
export function diffCounts(lines: DiffLine[]): { del: number; add: number } {
  let del = 0
  let add = 0
  for (const line of lines) {
    if (line.op === 'del') del++
    else if (line.op === 'add') add++
  }
  return { del, add }
}
