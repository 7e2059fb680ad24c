import { readdir, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { hostTag, isAtomicTempFile, tempFileOwner } from './atomic-write.ts'
import { isProcessAlive } from '../runtime/process-alive.ts'

/**
 * Whether a temp file is a killed writer's leftover: its writer (pid on this host) is gone. A file of
 * another host, or of an older build that did not name its writer, counts as left over only past
 * `olderThanMs` (another instance sharing the folder may be writing it right now).
 */
export function isLeftover(name: string, modifiedMs: number, olderThanMs: number, now = Date.now()): boolean {
  const owner = tempFileOwner(name)
  if (owner && owner.host === hostTag) return owner.pid !== process.pid && !isProcessAlive(owner.pid)
  return now - modifiedMs > olderThanMs
}

/** Remove temp files killed writers left behind, in `dir` and `depth` levels below. */
export async function sweepAtomicTempFiles(dir: string, depth = 0, olderThanMs = 10 * 60_000): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  let removed = 0
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() && depth > 0) removed += await sweepAtomicTempFiles(path, depth - 1, olderThanMs)
    else if (entry.isFile() && isAtomicTempFile(entry.name)) {
      const info = await stat(path).catch(() => undefined)
      if (info && isLeftover(entry.name, info.mtimeMs, olderThanMs) && await unlink(path).then(() => true, () => false)) removed++
    }
  }
  return removed
}
