/** Plain JSON data (what JSON.parse builds), compared and copied without writing it out. */
export const notPlain = Symbol('not plain JSON data')

/** A plain object or array; not an array JSON.stringify writes by its own toJSON (a function an object holds is never plain). */
export function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value)
  if (Array.isArray(value)) return proto === Array.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  return proto === Object.prototype || proto === null
}

/** Whether `a` and `b` write the same JSON (same keys in order, equal leaves); anything not plain data is never equal. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false
  if (!isPlain(a) || !isPlain(b)) return false
  if (Array.isArray(a)) {
    if (a.length !== (b as unknown[]).length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], (b as unknown[])[i])) return false
    return true
  }
  // For-in over `b`: Object.keys would make an array per object; an inherited key only makes them differ.
  const keysA = Object.keys(a)
  let i = 0
  for (const key in b) {
    if (key !== keysA[i] || !Object.hasOwn(b, key) || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
    i++
  }
  return i === keysA.length
}

/** A copy of plain JSON data (strings are shared: they cannot change), or `notPlain`. */
export function plainCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' ? notPlain : value
  if (!isPlain(value)) return notPlain
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) {
      const item = plainCopy(value[i])
      if (item === notPlain) return notPlain
      out[i] = item
    }
    return out
  }
  const out: Record<string, unknown> = {}
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const item = plainCopy((value as Record<string, unknown>)[key])
    if (item === notPlain) return notPlain
    setOwn(out, key, item)
  }
  return out
}

/** `object[key] = value`, `__proto__` an own key as JSON.parse makes it (an assignment would set the prototype). */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
  else object[key] = value
}
