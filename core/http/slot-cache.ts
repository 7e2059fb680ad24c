import { MissStreaks } from './miss-streaks.ts'

/**
 * Recent parts of bodies by their place (`tools.3`, `messages.17`, prefixed with the client key's scope):
 * a few per place, newest first, under a byte budget. What the two part caches share
 * (core/http/json-part-cache.ts, core/http/parsed-part-cache.ts).
 */
export class SlotCache<Part extends { bytes: Buffer }> {
  readonly #slots = new Map<string, Part[]>()
  #bytes = 0
  /** Groups of parts (a client key's `messages`) that stopped finding anything are left alone a while. */
  readonly streaks = new MissStreaks()

  /**
   * @param maxBytes when the cached bytes pass this, the cache starts over (what the parts hold in JS
   *   objects costs about as much again).
   * @param perSlot parts kept for one place (several conversations at once).
   */
  constructor(readonly maxBytes = 8 * 1024 * 1024, readonly perSlot = 8) {}

  /** The first part at `slot` that `matches` (it moves to the front). */
  protected findWhere(slot: string, matches: (part: Part) => boolean): Part | undefined {
    const parts = this.#slots.get(slot)
    if (!parts) return undefined
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      if (!matches(part)) continue
      if (i) {
        parts.splice(i, 1)
        parts.unshift(part)
      }
      return part
    }
    return undefined
  }

  protected add(slot: string, part: Part): void {
    let parts = this.#slots.get(slot)
    if (!parts) this.#slots.set(slot, parts = [])
    parts.unshift(part)
    this.#bytes += part.bytes.length
    if (parts.length > this.perSlot) this.#bytes -= parts.pop()!.bytes.length
    if (this.#bytes > this.maxBytes) this.clear()
  }

  clear(): void {
    this.#slots.clear()
    this.#bytes = 0
    this.streaks.clear()
  }

  /** Bytes held. */
  get size(): number { return this.#bytes }
}
