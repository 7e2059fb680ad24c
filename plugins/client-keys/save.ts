import { isMap, isSeq, type Document } from 'yaml'
import type { ProxyKernel } from 'model-proxy'
import { ManagementError, updateConfig, writeKeeping } from '../management/api.ts'
import { clientKeysOf, type ClientKeyEntry } from './schema.ts'
import { storedHash } from './key-hash.ts'

/**
 * A change to the `client-keys` list. `edit` builds the new entry from the one written when the change
 * takes its turn (never from a copy read before: two edits of one key at once would overwrite each
 * other), given every entry then (to refuse a rename onto another name).
 */
export type KeysChange =
  | { add: ClientKeyEntry }
  | { edit: string; with: (entry: ClientKeyEntry, entries: ClientKeyEntry[]) => ClientKeyEntry }
  | { remove: string }

const missing = (name: string) => new ManagementError(404, 'item not found', { message: `no client key named ${JSON.stringify(name)}` })

/** Why `entry` cannot join `others` (its name or its key is taken), as the 409 to answer, or undefined. */
export function conflictOf(entry: ClientKeyEntry, others: ClientKeyEntry[]): ManagementError | undefined {
  if (others.some(other => other.name === entry.name)) return new ManagementError(409, 'duplicate', { message: `a client key named ${JSON.stringify(entry.name)} exists` })
  if (others.some(other => typeof other.key === 'string' && storedHash(other.key) === storedHash(entry.key))) return new ManagementError(409, 'duplicate', { message: 'this key is in use' })
  return undefined
}

/**
 * Where the change goes in `entries` and what is written there (`entry` undefined: removed, `at` =
 * length: appended). Pure: the file and the live config apply it alike. Throws the client's 404 or 409.
 */
export function placeChange(entries: ClientKeyEntry[], change: KeysChange): { at: number; entry?: ClientKeyEntry } {
  if ('add' in change) {
    const conflict = conflictOf(change.add, entries)
    if (conflict) throw conflict
    return { at: entries.length, entry: change.add }
  }
  const name = 'remove' in change ? change.remove : change.edit
  const at = entries.findIndex(entry => entry.name === name)
  if (at < 0) throw missing(name)
  if ('remove' in change) return { at }
  const entry = change.with(entries[at]!, entries)
  const conflict = conflictOf(entry, entries.filter((_, i) => i !== at))
  if (conflict) throw conflict
  return { at, entry }
}

/** The entries with a placed change made. */
function withPlaced(entries: ClientKeyEntry[], { at, entry }: { at: number; entry?: ClientKeyEntry }): ClientKeyEntry[] {
  const next = [...entries]
  if (entry) next[at] = entry
  else next.splice(at, 1)
  return next
}

/** The document's `client-keys` entries as plain objects (what the file says now). */
function entriesIn(doc: Document): ClientKeyEntry[] {
  const list = doc.get('client-keys')
  return isSeq(list) ? list.items.map(item => (isMap(item) ? item.toJSON() : {}) as ClientKeyEntry) : []
}

/**
 * Write a change to the YAML in place (other entries keep their comments), under the file's write
 * queue, or to the live config when the proxy runs without a file. Answers the entry written (none for
 * a removal).
 */
export async function saveEntries(kernel: ProxyKernel, change: KeysChange): Promise<ClientKeyEntry | undefined> {
  if (!kernel.configFile) {
    const entries = clientKeysOf(kernel.config)
    const placed = placeChange(entries, change)
    await kernel.applyConfig({ ...kernel.config, 'client-keys': withPlaced(entries, placed) })
    return placed.entry
  }
  let written: ClientKeyEntry | undefined
  await updateConfig(kernel, (doc) => {
    const entries = entriesIn(doc)
    const { at, entry } = placeChange(entries, change)
    written = entry
    if (!entry) doc.deleteIn(['client-keys', at])
    else if ('add' in change && isSeq(doc.get('client-keys'))) doc.addIn(['client-keys'], doc.createNode(entry))
    else if ('add' in change) doc.set('client-keys', doc.createNode([entry]))
    // The entry's other lines (comments, flow lists, key order) stay as the file has them.
    else writeKeeping(doc, ['client-keys', at], entry, entries[at])
  })
  return written
}
