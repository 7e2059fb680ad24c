import { isMap as isYamlMap, isNode, isScalar, isSeq, parseDocument, type Document } from 'yaml'

/**
 * An entry of a list of named entries, found by its name (or `api-key`) wherever it is in the list; an
 * entry both sides had: `at` its place among `of` entries, where it is taken when the other side renamed
 * it (not found by name in a list of the same length); `renamed`: its name on the side the change comes
 * from, when that side renamed it in place.
 */
export interface Entry { entry: string; at?: number; of?: number; renamed?: string }

/** One change between two versions of a document: a key path set to the other side's value, or removed. */
export interface Change {
  path: Array<string | number | Entry>
  kind: 'set' | 'delete'
  /** For an element of a list: the list's length on the side the change was made against. */
  listLength?: number
}

const isMap = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** What finds an entry of a config list again: its `name`, else its `api-key` (every config list has one of them). */
export const identityOf = (value: unknown): string | undefined => {
  if (!isMap(value)) return undefined
  const id = typeof value.name === 'string' ? value.name : value['api-key']
  return typeof id === 'string' ? id : undefined
}

/** The identities of a list whose every entry has its own, else undefined. */
function identitiesOf(list: unknown[]): string[] | undefined {
  const ids = list.map(identityOf)
  return ids.every(id => id !== undefined) && new Set(ids).size === ids.length ? ids as string[] : undefined
}

/**
 * A list of named entries diffed by name: entries removed, added, and the fields changed in each, so a
 * change replays onto a list the other side grew or shrank (a key added there, one removed here). Only
 * when the entries that stay keep their places (a reorder is diffed by position). An entry renamed in
 * place (a list of the same length, neither name on the other side) is diffed field by field under its
 * old name, so the rename replays onto a list the other side grew as well.
 */
function diffEntries(base: unknown[], next: unknown[], path: Array<string | number | Entry>): Change[] | undefined {
  const before = identitiesOf(base)
  const after = identitiesOf(next)
  if (!before || !after) return undefined
  const kept = before.filter(id => after.includes(id))
  if (kept.join('\0') !== after.filter(id => before.includes(id)).join('\0')) return undefined
  const renamed = (i: number) => base.length === next.length && before[i] !== after[i]
  if (before.some((id, i) => renamed(i) && (after.includes(id) || before.includes(after[i]!)))) return undefined
  const changes: Change[] = []
  for (const [at, id] of before.entries()) if (!after.includes(id) && !renamed(at)) changes.push({ path: [...path, { entry: id, at, of: base.length }], kind: 'delete' })
  for (const [i, id] of after.entries()) {
    const at = renamed(i) ? i : before.indexOf(id)
    const entry: Entry = { entry: before[at] ?? id, at, of: base.length, ...(renamed(i) && { renamed: id }) }
    changes.push(...at < 0 ? [{ path: [...path, { entry: id }], kind: 'set' as const }] : diffValues(base[at], next[i], [...path, entry]))
  }
  return changes
}

/**
 * What turned `base` into `next`, as key paths: maps key by key, lists element by element while their
 * length is unchanged (two instances editing different entries of one list both keep their edit),
 * anything else as a whole value.
 */
export function diffValues(base: unknown, next: unknown, path: Array<string | number | Entry> = []): Change[] {
  if (same(base, next)) return []
  if (isMap(base) && isMap(next)) {
    const changes: Change[] = []
    for (const key of new Set([...Object.keys(base), ...Object.keys(next)])) {
      if (!(key in next)) changes.push({ path: [...path, key], kind: 'delete' })
      else changes.push(...diffValues(base[key], next[key], [...path, key]))
    }
    return changes
  }
  const entries = Array.isArray(base) && Array.isArray(next) && path.length ? diffEntries(base, next, path) : undefined
  if (entries) return entries
  if (Array.isArray(base) && Array.isArray(next) && base.length === next.length && path.length) {
    return base.flatMap((item, i) => diffValues(item, next[i], [...path, i]).map(change => ({ ...change, listLength: change.listLength ?? base.length })))
  }
  return [{ path, kind: 'set' }]
}

/** A list path's parent (the list itself) when the change is to one of its elements. */
const listPathOf = (change: Change) => change.path.slice(0, change.path.findLastIndex(key => typeof key === 'number'))

/**
 * Three-way merge of YAML texts: the changes `local` made to `base`, replayed onto `remote`. Keys only
 * one side touched keep that side's value; a key both changed takes `local`'s (the newer write).
 * Remote comments stay, and a replayed value brings its own comments from `local`. An element change
 * to a list whose length differs on `remote` replaces the whole list with `local`'s.
 */
export function mergeYaml(base: string, local: string, remote: string): string {
  const baseDoc = parseDocument(base)
  const localDoc = parseDocument(local)
  const out = parseDocument(remote)
  if (baseDoc.errors.length || localDoc.errors.length || out.errors.length) throw new Error('cannot merge: a version does not parse')
  const changes = diffValues(baseDoc.toJS() ?? {}, localDoc.toJS() ?? {})
  if (changes.some(change => change.path.length === 0)) return local
  applyChanges(out, localDoc, changes)
  return out.toString()
}

function applyChanges(out: Document, from: Document, changes: Change[]): void {
  const replaced = new Set<string>()
  const lostRenames = new Map<string, boolean>()
  for (const change of changes) {
    if (change.path.some(key => typeof key === 'object')) {
      // A rename that lost takes the entry's other changes with it: its writer is refused as a whole.
      const renamedAt = change.path.findIndex(key => typeof key === 'object' && key.renamed !== undefined)
      if (renamedAt >= 0) {
        const entryPath = change.path.slice(0, renamedAt + 1)
        const id = JSON.stringify(entryPath)
        if (!lostRenames.has(id)) lostRenames.set(id, renameTaken(out, from, entryPath))
        if (lostRenames.get(id)) continue
      }
      applyEntryChange(out, from, change)
      continue
    }
    const whole = change.path as Array<string | number>
    let path = whole
    if (change.listLength !== undefined) {
      const list = listPathOf(change) as Array<string | number>
      const there = out.getIn(list)
      if (!Array.isArray((there as { items?: unknown[] } | undefined)?.items) || (there as { items: unknown[] }).items.length !== change.listLength) {
        if (replaced.has(JSON.stringify(list))) continue
        replaced.add(JSON.stringify(list))
        path = list
      }
    }
    if (change.kind === 'delete' && path === whole) deleteKeepingComment(out, path)
    else {
      const node = from.getIn(path, true)
      out.setIn(path, isNode(node) ? node.clone() : out.createNode(node))
    }
  }
}

/** The identity of a list item of a document (a node). */
const plainIdentity = (item: unknown) => identityOf(isNode(item) ? item.toJSON() : item)

/**
 * Besides its name, what no two entries of a list may share: a client key's secret (`key`, stored as its
 * hash), else one secret would be counted under two names.
 */
function secretOf(item: unknown): string | undefined {
  const value = isNode(item) ? item.toJSON() : item
  return isMap(value) && typeof value.key === 'string' ? value.key : undefined
}

/**
 * Whether this side's rename of the entry at `entryPath` lost: the other side has another entry of the
 * new name by now (added or renamed there at the same time, and committed first).
 */
function renameTaken(out: Document, from: Document, entryPath: Change['path']): boolean {
  const listPath = placeIn(out, entryPath.slice(0, -1))
  const list = listPath && out.getIn(listPath, true)
  if (!isSeq(list)) return false
  const target = placeIn(out, entryPath, from)?.at(-1)
  const name = (entryPath.at(-1) as Entry).renamed
  return list.items.some((item, i) => i !== target && plainIdentity(item) === name)
}

/** Whether the list at `listPath` of `doc` (the same path on both sides while no entry above was renamed) has an entry named `id`. */
function hasEntry(doc: Document, listPath: Array<string | number>, id: string | undefined): boolean {
  const list = doc.getIn(listPath, true)
  return id !== undefined && isSeq(list) && list.items.some(item => plainIdentity(item) === id)
}

/**
 * The path with each named entry's place in `doc`; undefined when an entry is not there. With `renamedFrom`
 * (the side the change comes from): an entry not found by name is the one in its place when the list has
 * its length and that entry's name is not on the change's side (the other side renamed it). `changeSide`:
 * `doc` is the side the change comes from, where an entry it renamed has its new name.
 */
function placeIn(doc: Document, path: Change['path'], renamedFrom?: Document, changeSide = false): Array<string | number> | undefined {
  const placed: Array<string | number> = []
  for (const key of path) {
    if (typeof key !== 'object') {
      placed.push(key)
      continue
    }
    const list = doc.getIn(placed, true)
    if (!isSeq(list)) return undefined
    const name = changeSide ? key.renamed ?? key.entry : key.entry
    const at = list.items.findIndex(item => plainIdentity(item) === name)
    if (at >= 0) placed.push(at)
    else if (key.at !== undefined && list.items.length === key.of && renamedFrom && !hasEntry(renamedFrom, placed, plainIdentity(list.items[key.at]))) placed.push(key.at)
    else return undefined
  }
  return placed
}

/**
 * A change to a named entry, made where that entry is on the other side: a removal or a field change
 * of an entry the other side removed is moot; an entry added here joins the other side's list.
 */
function applyEntryChange(out: Document, from: Document, change: Change): void {
  const target = placeIn(out, change.path, from)
  if (change.kind === 'delete') {
    if (target) deleteKeepingComment(out, target)
    return
  }
  const source = placeIn(from, change.path, undefined, true)
  if (!source) return
  const node = from.getIn(source, true)
  const value = isNode(node) ? node.clone() : out.createNode(node)
  // Added on both sides (one name, two entries): the one committed first stays, its writer was answered
  // first (a later writer can tell its entry did not make it; see client-keys' POST).
  const added = typeof change.path.at(-1) === 'object' && (change.path.at(-1) as Entry).at === undefined
  if (target && added) return
  if (target) return out.setIn(target, value)
  if (typeof change.path.at(-1) !== 'object') return
  const listPath = placeIn(out, change.path.slice(0, -1))
  const list = listPath && out.getIn(listPath, true)
  if (!isSeq(list)) return
  // One secret added under two names at once: the same, the entry committed first stays.
  const secret = secretOf(value)
  if (secret !== undefined && list.items.some(item => secretOf(item) === secret)) return
  // Where this side put it: after the entry it follows here (order matters: rules, fill-first), first
  // when it is first here; at the end when the entry it follows is gone there.
  const here = source.at(-1) as number
  const previous = here > 0 ? plainIdentity(from.getIn([...source.slice(0, -1), here - 1], true)) : undefined
  const after = previous === undefined ? -1 : list.items.findIndex(item => plainIdentity(item) === previous)
  list.items.splice(here === 0 ? 0 : after < 0 ? list.items.length : after + 1, 0, value)
}

/** The same merge for JSON documents (credential files); the result is pretty-printed JSON. */
export function mergeJson(base: string, local: string, remote: string): string {
  const doc = (text: string) => parseDocument(text)
  const merged = parseDocument(mergeYaml(doc(base).toString(), doc(local).toString(), doc(remote).toString()))
  return `${JSON.stringify(merged.toJS(), null, 2)}\n`
}

/** Remove a key; a comment written above it (often the file's opening comment) moves to the next key. */
function deleteKeepingComment(doc: Document, path: Array<string | number>): void {
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents
  if (isYamlMap(parent)) {
    const at = parent.items.findIndex(pair => (isScalar(pair.key) ? pair.key.value : pair.key) === path.at(-1))
    const key = parent.items[at]?.key
    const next = parent.items[at + 1]?.key
    if (isNode(key) && key.commentBefore && isNode(next)) next.commentBefore = next.commentBefore ? `${key.commentBefore}\n${next.commentBefore}` : key.commentBefore
  }
  doc.deleteIn(path)
}

/** How many changes turn one YAML (or JSON) text into another; texts that do not parse are far apart. */
export function changeCount(from: string, to: string): number {
  const a = parseDocument(from)
  const b = parseDocument(to)
  if (a.errors.length || b.errors.length) return Number.MAX_SAFE_INTEGER
  return diffValues(a.toJS() ?? {}, b.toJS() ?? {}).length
}
