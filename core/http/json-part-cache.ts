/**
 * The JSON bytes of upstream body parts written recently, reused when a new body holds an equal part.
 *
 * Why: an agent sends its tools, its system prompt and its whole history again on every turn. Translated,
 * each turn's upstream body repeats the last one's parts, and writing them is most of what writing the
 * body costs (150 KB agent request: 24 tools cost ~180 µs to write, ~22 µs to compare with the ones
 * written before). A part is found by its place (`tools.3`, `messages.17`) and matched by value, the way
 * JSON.stringify would see it: the same keys in the same order, the same strings and numbers. The cache
 * keeps its own copy of each part, so nobody's later edit of the original can make a match lie.
 */
export class JsonPartCache {
  readonly #slots = new Map<string, CachedPart[]>()
  #bytes = 0

  /**
   * @param maxBytes when the cached bytes pass this, the cache starts over (the copies of the parts cost
   *   about as much again in JS objects).
   * @param perSlot parts kept for one place (several conversations at once).
   */
  constructor(readonly maxBytes = 8 * 1024 * 1024, readonly perSlot = 8) {}

  /** The bytes of a cached part equal to `value` at `slot` (the found part moves to the front). */
  find(slot: string, value: unknown): Buffer | undefined {
    const parts = this.#slots.get(slot)
    if (!parts) return undefined
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      if (!sameJson(part.value, value)) continue
      if (i) {
        parts.splice(i, 1)
        parts.unshift(part)
      }
      return part.bytes
    }
    return undefined
  }

  /** Keep `bytes` as the JSON of `value` at `slot` (ignored for values that are not plain JSON data). */
  store(slot: string, value: unknown, bytes: Buffer): void {
    const copy = plainCopy(value)
    if (copy === notPlain) return
    let parts = this.#slots.get(slot)
    if (!parts) this.#slots.set(slot, parts = [])
    parts.unshift({ value: copy, bytes })
    this.#bytes += bytes.length
    if (parts.length > this.perSlot) this.#bytes -= parts.pop()!.bytes.length
    if (this.#bytes > this.maxBytes) this.clear()
  }

  clear(): void {
    this.#slots.clear()
    this.#bytes = 0
  }

  get size(): number { return this.#bytes }
}

interface CachedPart { value: unknown; bytes: Buffer }

const notPlain = Symbol('not plain JSON data')

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * Whether `a` and `b` write the same JSON: the same keys in the same order, equal strings, numbers,
 * booleans and nulls. Anything else (an instance with `toJSON`, a Date, a Map) is never equal, so it is
 * never taken from the cache.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length || Object.getPrototypeOf(a) !== Array.prototype || Object.getPrototypeOf(b) !== Array.prototype) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false
  const keysA = Object.keys(a)
  const keysB = Object.keys(b)
  if (keysA.length !== keysB.length) return false
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!
    if (key !== keysB[i] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
  }
  return true
}

/** A copy of plain JSON data (strings are shared: they cannot change), or `notPlain`. */
function plainCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' ? notPlain : value
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return notPlain
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) {
      const item = plainCopy(value[i])
      if (item === notPlain) return notPlain
      out[i] = item
    }
    return out
  }
  if (!isPlainObject(value)) return notPlain
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const item = plainCopy((value as Record<string, unknown>)[key])
    if (item === notPlain) return notPlain
    // A key named __proto__ stays an own key (an assignment would set the prototype).
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
    else out[key] = item
  }
  return out
}
