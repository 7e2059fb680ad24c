import { readFileSync, renameSync } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import { createHash, randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { dirname, basename, join } from 'node:path'

/** This host, shortened: temp files name their writer's host and pid, so a sweep knows whose they are. */
export const hostTag = createHash('sha256').update(hostname()).digest('hex').slice(0, 8)

/** Temp files of `writeFileAtomic`: `.<name>.<pid>-<host>-<random>.tmp` beside the target (readers skip them). */
export const isAtomicTempFile = (name: string) => /(^|\/)\.[^/]*\.[\w-]+\.tmp$/.test(name)

/** The writer a temp file names (older builds wrote `.<name>.<uuid>.tmp`: no owner). */
export function tempFileOwner(name: string): { pid: number; host: string } | undefined {
  const match = /\.(\d+)-([0-9a-f]{8})-[0-9a-f]+\.tmp$/.exec(name)
  return match ? { pid: Number(match[1]), host: match[2]! } : undefined
}

const tempPathFor = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}-${hostTag}-${randomBytes(6).toString('hex')}.tmp`)

/**
 * Write so that a reader (or a crash, SIGKILL included) sees the old file or the new one, never half of
 * one: a temp file of its own (concurrent writers never share one), fsync, rename, fsync of the folder.
 * When it resolves, the new content is durable: callers acknowledge a write only after it.
 */
export async function writeFileAtomic(path: string, text: string | Uint8Array, options: { guard?: () => void } = {}): Promise<void> {
  const temp = tempPathFor(path)
  const handle = await open(temp, 'wx', 0o600)
  try {
    await handle.writeFile(text)
    await handle.sync()
  } catch (error) {
    await handle.close()
    await unlink(temp).catch(() => {})
    throw error
  }
  await handle.close()
  try {
    // A caller's last check (the file still holds what it read) and the switch, back to back on this
    // thread: nothing written by anyone else can land between them but within two system calls.
    if (options.guard) {
      options.guard()
      renameSync(temp, path)
    } else {
      await rename(temp, path)
    }
  } catch (error) {
    await unlink(temp).catch(() => {})
    throw error
  }
  // The rename itself is durable only once the folder is flushed (power loss, not just a killed process).
  const folder = await open(dirname(path), 'r').catch(() => undefined)
  await folder?.sync().catch(() => {})
  await folder?.close()
}

/** A write refused because the file no longer holds what the writer read: read again and redo the change. */
export class FileChangedError extends Error {
  override name = 'FileChangedError'
  constructor(path: string) { super(`${path} changed while it was being rewritten`) }
}

/**
 * A `guard` for writeFileAtomic: the file still holds `expected` (undefined: there is no file).
 * Synchronous, so that the check and the rename follow each other with nothing in between.
 */
export function unchangedSince(path: string, expected: string | undefined): void {
  let now: string | undefined
  try {
    now = readFileSync(path, 'utf8')
  } catch {}
  if (now !== expected) throw new FileChangedError(path)
}
