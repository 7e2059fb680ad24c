/** `a.b.0.c` or `a.b[0].c` -> ['a', 'b', 0, 'c']: dots and array indexes, as the spec's payload params. */
export function parsePath(path: string): Array<string | number> {
  const segments: Array<string | number> = []
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (part === '') continue
    segments.push(/^\d+$/.test(part) ? Number(part) : part)
  }
  return segments
}

type Container = Record<string, unknown> | unknown[]
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null

export function hasPath(root: unknown, path: Array<string | number>): boolean {
  let node = root
  for (const key of path) {
    if (!isContainer(node) || !(key in node)) return false
    node = (node as Record<string | number, unknown>)[key]
  }
  return true
}

/** Set, creating objects (or arrays, for a numeric next segment) along the way. */
export function setPath(root: Record<string, unknown>, path: Array<string | number>, value: unknown): void {
  let node: Container = root
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!
    let next = (node as Record<string | number, unknown>)[key]
    if (!isContainer(next)) {
      next = typeof path[i + 1] === 'number' ? [] : {}
      ;(node as Record<string | number, unknown>)[key] = next
    }
    node = next as Container
  }
  ;(node as Record<string | number, unknown>)[path.at(-1)!] = value
}

export function deletePath(root: unknown, path: Array<string | number>): void {
  let node = root
  for (let i = 0; i < path.length - 1; i++) {
    if (!isContainer(node)) return
    node = (node as Record<string | number, unknown>)[path[i]!]
  }
  const last = path.at(-1)!
  if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1)
  else if (isContainer(node)) delete (node as Record<string | number, unknown>)[last]
}
