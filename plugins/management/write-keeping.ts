import { isDeepStrictEqual } from 'node:util'
import { isMap, isScalar, isSeq, type Document } from 'yaml'
import { identityOf } from 'model-proxy/kit/config'

type Plain = Record<string, unknown>
const isPlain = (value: unknown): value is Plain => !!value && typeof value === 'object' && !Array.isArray(value)

const sameIdentity = (a: unknown, b: unknown) => identityOf(a) !== undefined && identityOf(a) === identityOf(b)

/**
 * `next` written at `path`, over `current`: what the proxy reads there now (references resolved, the
 * defaults GET shows filled in). Clients send back what GET gave them with their change; written as
 * it came, that would put every `${env:…}` secret into the file in plain text, drop the comments of
 * entries it did not change and add every default. So a part equal to `current` keeps its node as the
 * file has it; maps are merged key by key, lists item by item (an item found again by value, or by its
 * name); anything else is written anew.
 */
export function writeKeeping(doc: Document, path: Array<string | number>, next: unknown, current: unknown): void {
  if (isDeepStrictEqual(next, current)) return
  const node = doc.getIn(path, true)
  const kept = keep(doc, node, current, next)
  if (kept !== node) doc.setIn(path, kept)
}

function keep(doc: Document, node: unknown, current: unknown, next: unknown): unknown {
  if (node !== undefined && isDeepStrictEqual(current, next)) return node
  if (isMap(node) && isPlain(current) && isPlain(next)) {
    for (const [key, value] of Object.entries(next)) {
      const child = node.get(key, true)
      // A default sent back (absent from the file, equal to what the proxy reads): not written.
      if (child === undefined && isDeepStrictEqual(current[key], value)) continue
      const kept = keep(doc, child, current[key], value)
      if (kept !== child) node.set(key, kept)
    }
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key
      if (typeof key === 'string' && !Object.hasOwn(next, key)) node.delete(key)
    }
    return node
  }
  if (isSeq(node) && Array.isArray(current) && Array.isArray(next) && node.items.length === current.length) {
    const used = new Set<number>()
    const take = (match: (item: unknown) => boolean) => {
      const at = current.findIndex((item, i) => !used.has(i) && match(item))
      if (at >= 0) used.add(at)
      return at
    }
    // Unchanged items first, so that a changed one found by its name cannot take an unchanged one's node.
    const found = next.map(value => take(item => isDeepStrictEqual(item, value)))
    next.forEach((value, j) => { if (found[j]! < 0) found[j] = take(item => sameIdentity(item, value)) })
    node.items = next.map((value, j) => found[j]! < 0 ? doc.createNode(value) : keep(doc, node.items[found[j]!], current[found[j]!], value))
    return node
  }
  const created = doc.createNode(next)
  // A value changed in place keeps the comment beside it (`rpm: 20 # per minute`).
  if (isScalar(node) && isScalar(created)) Object.assign(created, { comment: node.comment, commentBefore: node.commentBefore, spaceBefore: node.spaceBefore })
  return created
}
