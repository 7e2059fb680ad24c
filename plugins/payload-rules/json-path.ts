import { unsafePathMessage, unsafePathSegment, unsafeSegment } from 'model-proxy/kit/guards'

/**
 * `a.b.0.c` or `a.b[0].c` -> ['a', 'b', 0, 'c']: dots and array indexes, as the spec's payload params.
 * A segment that reaches the prototype chain throws (config validation refuses it before this).
 */
export function parsePath(path: string): Array<string | number> {
  const unsafe = unsafePathSegment(path)
  if (unsafe !== undefined) throw new TypeError(unsafePathMessage(path, unsafe))
  const segments: Array<string | number> = []
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (part === '') continue
    segments.push(/^\d+$/.test(part) ? Number(part) : part)
  }
  return segments
}

type Container = Record<string, unknown> | unknown[]
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null

/** Every writer checks again: a rule may have been built without `parsePath` (a plugin, a test). */
function assertSafe(path: Array<string | number>): void {
  const unsafe = unsafeSegment(path)
  if (unsafe !== undefined) throw new TypeError(`refused JSON path segment ${unsafe} in ${path.join('.')}`)
}

/** Own properties only: an inherited one (`toString`, `constructor`) is not part of the body. */
const child = (node: Container, key: string | number): unknown => Object.hasOwn(node, key) ? (node as Record<string | number, unknown>)[key] : undefined

export function hasPath(root: unknown, path: Array<string | number>): boolean {
  assertSafe(path)
  let node = root
  for (const key of path) {
    if (!isContainer(node) || !Object.hasOwn(node, key)) return false
    node = (node as Record<string | number, unknown>)[key]
  }
  return true
}

/** Set, creating objects (or arrays, for a numeric next segment) along the way. */
export function setPath(root: Record<string, unknown>, path: Array<string | number>, value: unknown): void {
  assertSafe(path)
  let node: Container = root
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!
    let next = child(node, key)
    if (!isContainer(next)) {
      next = typeof path[i + 1] === 'number' ? [] : {}
      ;(node as Record<string | number, unknown>)[key] = next
    }
    node = next as Container
  }
  ;(node as Record<string | number, unknown>)[path.at(-1)!] = value
}

export function deletePath(root: unknown, path: Array<string | number>): void {
  assertSafe(path)
  let node = root
  for (let i = 0; i < path.length - 1; i++) {
    if (!isContainer(node)) return
    node = child(node, path[i]!)
  }
  const last = path.at(-1)!
  if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1)
  else if (isContainer(node)) delete (node as Record<string | number, unknown>)[last]
}
