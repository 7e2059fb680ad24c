import { hashText } from '../config/config-text.ts'
import { versionOf, type SharedDocs, type SharedVersion } from './shared-docs.ts'
import type { SyncBase } from './base-store.ts'

/** The local side of a shared document: a file on this instance's disk. */
export interface LocalCopy {
  /** The file's text; undefined when there is no file. */
  read(): Promise<string | undefined>
  /** Replace the file durably (null: remove it). */
  write(text: string | null): Promise<void>
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
}

export interface BaseRecord { get(name: string): SyncBase | undefined; set(name: string, base: SyncBase | undefined): Promise<void> }

export type SyncOutcome =
  | { kind: 'in-sync' | 'local-missing' }
  | { kind: 'pulled' | 'pushed' | 'merged' | 'replaced'; version: SharedVersion }
  | { kind: 'invalid-local'; error: Error }

const baseOf = (version: SharedVersion): SyncBase => ({ stamp: version.stamp, hash: version.text === null ? '' : hashText(version.text), text: version.text })

/**
 * Bring one file and the fleet's copy together. With `base` the version both last agreed on:
 * only local changed -> commit it; only the fleet changed -> write the fleet's version; both -> merge
 * (local changes replayed onto the fleet's version) and commit that. A commit made from a version
 * that is no longer the newest is refused by the store, and the round starts again from the newest.
 * Throws FleetOfflineError when the shared store is down: the local file then stays as it is.
 */
export async function reconcileDoc(docs: SharedDocs, name: string, local: LocalCopy, bases: BaseRecord): Promise<SyncOutcome> {
  for (let round = 0; round < 8; round++) {
    const file = await local.read()
    // Everything below compares shared parts: instance-local keys never count as a change.
    const localText = file === undefined ? null : local.toShared ? local.toShared(file) : file
    const full = (text: string) => local.toLocal ? local.toLocal(text, file) : text
    const write = (text: string | null) => local.write(text === null ? null : full(text))
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
      if (!result.ok) continue
      await bases.set(name, baseOf(result.version))
      return { kind: 'pushed', version: result.version }
    }
    const remoteChanged = !base || base.stamp !== remote.stamp
    if (!localChanged && !remoteChanged) return { kind: 'in-sync' }
    if (!base || !localChanged || localText === null && !local.deletable) {
      // No common base (an instance joining the fleet): the fleet's version wins, the local file is kept aside.
      if (!base && file !== undefined) await local.replaced?.(file)
      await write(remoteText)
      await bases.set(name, baseOf(remote))
      return { kind: base ? 'pulled' : 'replaced', version: remote }
    }
    if (localText !== null) {
      const checked = await check(localText)
      if (checked) return checked
    }
    let next: string | null = localText
    if (remoteChanged) {
      // A deletion against a change: the change wins (a file someone still edits is not lost).
      if (localText === null) next = remoteText
      else if (remoteText !== null && base.text !== null) {
        next = local.merge(base.text, localText, remoteText)
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
    if (!result.ok) continue
    if (next !== localText) await write(next)
    await bases.set(name, baseOf(result.version))
    return { kind: remoteChanged ? 'merged' : 'pushed', version: result.version }
  }
  throw new Error(`${name}: gave up after 8 conflicting commits in a row`)
}

async function checkLocal(local: LocalCopy, text: string): Promise<SyncOutcome | undefined> {
  try {
    await local.check(text)
    return undefined
  } catch (error) {
    return { kind: 'invalid-local', error: error as Error }
  }
}
