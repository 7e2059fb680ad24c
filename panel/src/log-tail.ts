/**
 * Following `GET /logs?after=`: lines carry whole-second times and `after` means "strictly newer", so
 * a line written later in the second of the last poll would be missed. The tail asks from one second
 * earlier and drops the lines it already holds for that boundary second.
 */
export interface Tail { lines: string[]; latest: number; boundary: string[] }

export const emptyTail: Tail = { lines: [], latest: 0, boundary: [] }

/** `[2026-11-22 16:04:05] INFO: ...` -> Unix seconds (local time, as the server writes it). */
export function lineSeconds(line: string): number | undefined {
  const match = /^\[(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\]/.exec(line)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s] = match.map(Number)
  return Math.floor(new Date(y!, mo! - 1, d!, h!, mi!, s!).getTime() / 1000)
}

export const lineLevel = (line: string) => /^\[[^\]]+\]\s+([A-Z]+):/.exec(line)?.[1] ?? ''

/** The `after` to ask with next. */
export const nextAfter = (tail: Tail) => tail.latest > 0 ? tail.latest - 1 : 0

/** Merge one answer into the tail, keeping at most `max` lines. */
export function mergeTail(tail: Tail, incoming: string[], max = 2000): Tail {
  const seen = new Map<string, number>()
  for (const line of tail.boundary) seen.set(line, (seen.get(line) ?? 0) + 1)
  const fresh: string[] = []
  for (const line of incoming) {
    const time = lineSeconds(line) ?? 0
    const count = seen.get(line) ?? 0
    if (tail.latest && time <= tail.latest && count > 0) { seen.set(line, count - 1); continue }
    if (tail.latest && time < tail.latest) continue
    fresh.push(line)
  }
  const lines = [...tail.lines, ...fresh].slice(-max)
  const latest = lines.reduce((max, line) => Math.max(max, lineSeconds(line) ?? 0), tail.latest)
  return { lines, latest, boundary: lines.filter(line => lineSeconds(line) === latest) }
}

/** Lines shown: level (or all) and a case-insensitive text filter. */
export function filterLines(lines: string[], level: string, text: string): string[] {
  const needle = text.trim().toLowerCase()
  return lines.filter(line => (!level || lineLevel(line) === level) && (!needle || line.toLowerCase().includes(needle)))
}
