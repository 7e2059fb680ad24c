import { isMap as isYamlMap, isNode, isScalar, parseDocument, type Document } from 'yaml'

/** One change between two versions of a document: a key path set to the other side's value, or removed. */
export interface Change {
  path: Array<string | number>
  kind: 'set' | 'delete'
  /** For an element of a list: the list's length on the side the change was made against. */
  listLength?: number
}

const isMap = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * What turned `base` into `next`, as key paths: maps key by key, lists element by element while their
 * length is unchanged (two instances editing different entries of one list both keep their edit),
 * anything else as a whole value.
 */
export function diffValues(base: unknown, next: unknown, path: Array<string | number> = []): Change[] {
  if (same(base, next)) return []
  if (isMap(base) && isMap(next)) {
    const changes: Change[] = []
    for (const key of new Set([...Object.keys(base), ...Object.keys(next)])) {
      if (!(key in next)) changes.push({ path: [...path, key], kind: 'delete' })
      else changes.push(...diffValues(base[key], next[key], [...path, key]))
    }
    return changes
  }
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
  for (const change of changes) {
    let path = change.path
    if (change.listLength !== undefined) {
      const list = listPathOf(change)
      const there = out.getIn(list)
      if (!Array.isArray((there as { items?: unknown[] } | undefined)?.items) || (there as { items: unknown[] }).items.length !== change.listLength) {
        if (replaced.has(JSON.stringify(list))) continue
        replaced.add(JSON.stringify(list))
        path = list
      }
    }
    if (change.kind === 'delete' && path === change.path) deleteKeepingComment(out, path)
    else {
      const node = from.getIn(path, true)
      out.setIn(path, isNode(node) ? node.clone() : out.createNode(node))
    }
  }
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
