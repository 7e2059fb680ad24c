/** Storage keys of the ring: a sortable index entry per record, and the record itself. */
export const indexBase = 'recorder:index'
export const recordKey = (id: string) => `recorder:record:${id}`

/** `<15-digit epoch ms>-<id>`: index entries sort by time as strings. */
export const entryOf = (time: number, id: string) => `${String(Math.max(0, Math.floor(time))).padStart(15, '0')}-${id}`

export function parseEntry(entry: string): { time: number; id: string } | undefined {
  const match = /^(\d{15})-(.+)$/.exec(entry)
  return match ? { time: Number(match[1]), id: match[2]! } : undefined
}

/** Ids safe in a storage key and a file name (request ids are uuids, or a client's own X-Request-ID of `[\w.-]`). */
export const isRecordId = (id: string) => /^\w[\w.-]{0,127}$/.test(id) && !id.includes('..')

/** Entries (sorted oldest first) the retention drops: older than `cutoff`, then the oldest beyond `max`. */
export function entriesToTrim(sorted: string[], max: number, cutoff: number): string[] {
  let old = 0
  while (old < sorted.length && (parseEntry(sorted[old]!)?.time ?? 0) < cutoff) old++
  return sorted.slice(0, Math.max(old, sorted.length - max))
}
