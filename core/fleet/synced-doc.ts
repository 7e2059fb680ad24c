import { hashText } from '../config/config-text.ts'
import { versionOf, type SharedVersion } from './shared-docs.ts'

/** Where the fleet's versions live (SharedDocs in Redis; anything with compare-and-set). */
export interface DocStore {
  read(name: string): Promise<SharedVersion | undefined>
  commit(name: string, expected: string | undefined, text: string | null, atLeast?: number): Promise<{ ok: true; version: SharedVersion } | { ok: false; current: string }>
}
import type { SyncBase } from './base-store.ts'

/** The local side of a shared document: a file on this instance's disk. */
export interface LocalCopy {
  /** The file's text; undefined when there is no file. */
  read(): Promise<string | undefined>
  /**
   * Replace the file durably (null: remove it), unless it no longer holds `expected` (someone wrote it
   * meanwhile): then throw FileChangedError (core/config/atomic-write.ts) and the round starts again
   * with what is there now.
   */
  write(text: string | null, expected: string | undefined): Promise<void>
  /** Throws when the text must not be shared (it does not parse or validate). */
  check(text: string): Promise<void> | void
  /** Replay the changes `local` made to `base` onto `remote`. */
  merge(base: string, local: string, remote: string): string
  /** A missing file is a deletion to share (credential files), or just not there yet (the config). */
  deletable: boolean
  /** Before a joining instance's differing file is replaced by the fleet's (no common base): keep a copy. */
  replaced?(text: string): Promise<void>
  /** The part of the file that is shared (default: all of it); what is left out stays each instance's own. */
  toShared?(text: string): string
  /** The shared text with this instance's own part put back, from its current file. */
  toLocal?(shared: string, current: string | undefined): string
  /** How many changes lie between two texts (to tell which version an edit was made on). */
  distance?(from: string, to: string): number
}

export interface BaseRecord {
  get(name: string): SyncBase | undefined
  set(name: string, base: SyncBase | undefined): Promise<void>
  /** Earlier agreed versions, newest first. */
  recent?(name: string): SyncBase[]
}

/**
 * The version the local text was edited from: the current base, or one replaced in the last seconds
 * when the text is closer to it. An editor that read the file just before this instance wrote a newer
 * version into it, and saved after, made its change on the older version: replaying it against the
 * newer one would revert everything in between. (A deliberate undo of a change within seconds of it
 * looks the same and is taken for such a late save.)
 */
function editedFrom(local: LocalCopy, bases: BaseRecord, name: string, base: SyncBase, text: string): SyncBase {
  if (!local.distance || !bases.recent || base.text === null) return base
  let best = base
  let bestDistance = local.distance(base.text, text)
  for (const older of bases.recent(name)) {
    if (bestDistance === 0) break
    if (older.text === null) continue
    const distance = local.distance(older.text, text)
    if (distance < bestDistance) {
      best = older
      bestDistance = distance
    }
  }
  return best
}

export type SyncOutcome =
  | { kind: 'in-sync' | 'local-missing' }
  | { kind: 'pulled' | 'pushed' | 'merged' | 'replaced'; version: SharedVersion }
  | { kind: 'invalid-local'; error: Error }

const baseOf = (version: SharedVersion): SyncBase => ({ stamp: version.stamp, hash: version.text === null ? '' : hashText(version.text), text: version.text })

/**
 * What this process knows of the local text, when it wrote it: `on`, the text its edit was made on (a
 * management write to the config); `whole`, a text it wrote whatever was there (an upload). Either way,
 * a local text equal to an older version is an undo made on purpose, not an editor's late save.
 */
export type MadeHere = { on: string } | { whole: string }

/**
 * Bring one file and the fleet's copy together (`made`: see MadeHere). With `base` the version both last agreed on:
 * only local changed -> commit it; only the fleet changed -> write the fleet's version; both -> merge
 * (local changes replayed onto the fleet's version) and commit that. A commit made from a version
 * that is no longer the newest is refused by the store, and the round starts again from the newest.
 * Throws FleetOfflineError when the shared store is down: the local file then stays as it is.
 */
export async function reconcileDoc(docs: DocStore, name: string, local: LocalCopy, bases: BaseRecord, made?: MadeHere): Promise<SyncOutcome> {
  for (let round = 0; round < 8; round++) {
    try {
      return await reconcileRound(docs, name, local, bases, made)
    } catch (error) {
      // By name: a plugin loaded through jiti may hold its own copy of this module.
      if ((error as Error).name !== 'RetryRound' && (error as Error).name !== 'FileChangedError') throw error
    }
  }
  throw new Error(`${name}: gave up after 8 rounds (conflicting commits or writes in a row)`)
}

/** A commit refused (someone committed first) or the file written meanwhile: start over from what is there now. */
class RetryRound extends Error {
  override name = 'RetryRound'
}


async function reconcileRound(docs: DocStore, name: string, local: LocalCopy, bases: BaseRecord, made?: MadeHere): Promise<SyncOutcome> {
  const file = await local.read()
  // Everything below compares shared parts: instance-local keys never count as a change.
  const localText = file === undefined ? null : local.toShared ? local.toShared(file) : file
  const full = (text: string) => local.toLocal ? local.toLocal(text, file) : text
  const write = (text: string | null) => local.write(text === null ? null : full(text), file)
  const check = (text: string) => checkLocal(local, full(text))
  const remote = await docs.read(name)
  const base = bases.get(name)
  const remoteText = remote ? remote.text : null

  if (remote && remoteText === localText) {
    if (base?.stamp !== remote.stamp) await bases.set(name, baseOf(remote))
    return { kind: 'in-sync' }
  }
  if (localText === null && !local.deletable && !remote) return { kind: 'local-missing' }
  const localChanged = !base || (localText === null ? local.deletable && base.text !== null : hashText(localText) !== base.hash)
  const known = versionOf(base?.stamp)
  // The store has no copy (first instance, or Redis came back empty), or an older one than this
  // instance has seen (restored from an old snapshot): what this instance has is the newest.
  if (!remote || versionOf(remote.stamp) < known) {
    if (localText === null && !remote) return { kind: 'in-sync' }
    if (localText !== null) {
      const checked = await check(localText)
      if (checked) return checked
    }
    const result = await docs.commit(name, remote?.stamp, localText, known)
    if (!result.ok) throw new RetryRound()
    await bases.set(name, baseOf(result.version))
    return { kind: 'pushed', version: result.version }
  }
  // The local text may have been edited from an earlier version than the base (see editedFrom), unless
  // this process made it on the base itself, or wrote it whole (see MadeHere).
  const onBase = localText !== null && base !== undefined && made !== undefined
    && ('on' in made ? hashText(local.toShared ? local.toShared(made.on) : made.on) === base.hash : made.whole === localText)
  const from = base && localText !== null && !onBase ? editedFrom(local, bases, name, base, localText) : base
  const behind = from !== base
  const editedLocally = behind ? hashText(localText!) !== from!.hash : localChanged
  const remoteChanged = !base || base.stamp !== remote.stamp
  if (!editedLocally && !remoteChanged && !behind) return { kind: 'in-sync' }
  if (!base || !from || !editedLocally || localText === null && !local.deletable) {
    // No common base (an instance joining the fleet): the fleet's version wins, the local file is kept aside.
    if (!base && file !== undefined) await local.replaced?.(file)
    await write(remoteText)
    await bases.set(name, baseOf(remote))
    return { kind: base || file === undefined ? 'pulled' : 'replaced', version: remote }
  }
  if (localText !== null) {
    const checked = await check(localText)
    if (checked) return checked
  }
  let next: string | null = localText
  if (remoteChanged || behind) {
    // A deletion against a change: the change wins (a file someone still edits is not lost).
    if (localText === null) next = remoteText
    else if (remoteText !== null && from.text !== null) {
      next = local.merge(from.text, localText, remoteText)
      // Two valid versions can merge into an invalid one: then the newer write (local) wins whole.
      if (await check(next)) next = localText
    }
    if (next === remoteText) {
      await write(next)
      await bases.set(name, baseOf(remote))
      return { kind: 'pulled', version: remote }
    }
  }
  const result = await docs.commit(name, remote.stamp, next, known)
  if (!result.ok) throw new RetryRound()
  if (next !== localText) await write(next)
  await bases.set(name, baseOf(result.version))
  return { kind: remoteChanged || behind ? 'merged' : 'pushed', version: result.version }
}

async function checkLocal(local: LocalCopy, text: string): Promise<SyncOutcome | undefined> {
  try {
    await local.check(text)
    return undefined
  } catch (error) {
    return { kind: 'invalid-local', error: error as Error }
  }
}
