import { scanTopLevel, type TopLevelScan } from './body-scan.ts'
import { rescan } from './scan-reuse.ts'
import { SlotCache, type CacheBudget } from './slot-cache.ts'

/** A recent body of a scope: its bytes (a buffer kept and refilled, `length` of it in use) and its scan. */
interface ScannedBody { bytes: Buffer; length: number; scan: TopLevelScan }

/**
 * The scans of each client key's recent large bodies, so the next body of the same conversation is scanned
 * only where it differs (core/json/scan-reuse.ts).
 *
 * Why: the body scan is the proxy's largest own cost on a same-format agent request (~35 µs for 150 KB
 * in-process, ~50 under load), and an agent's next turn repeats all but its last messages byte for byte.
 * Comparing 150 KB with the last body takes ~2 µs, keeping a copy ~3. The copies go into buffers kept for
 * reuse: a fresh 150 KB buffer per request costs page faults (~170 µs on this kind of VM) and, kept past
 * two young collections, an old-space collection to free it. Scopes never share: one client's bodies are
 * never compared with another's (their timing would tell what the other sent).
 */
export class ScanMemo extends SlotCache<ScannedBody> {
  /**
   * @param minBytes smaller bodies are scanned whole (a few µs), not kept.
   * @param budget bytes of kept buffers at most, shared with the part caches (core/json/caches.ts).
   * @param perScope bodies kept per client key (an agent's main conversation, its subagents, side calls).
   * @param maxBodyBytes larger bodies are scanned whole, not kept.
   */
  constructor(readonly minBytes = 16 * 1024, budget?: CacheBudget, perScope = 4, readonly maxBodyBytes = 512 * 1024) {
    super(budget, perScope)
  }

  /** `scanTopLevel(bytes, maxDepth)`, from a recent body of `scope` where one differs from it only inside a list. */
  scan(bytes: Buffer, scope: string, maxDepth: number): TopLevelScan | undefined {
    // Larger bodies are scanned whole: what makes them large is a few long strings (images, files), which
    // the scan jumps over, and keeping a copy of each would push everything else out of the budget.
    if (!this.enabled || bytes.length < this.minBytes || bytes.length > this.maxBodyBytes) return scanTopLevel(bytes, maxDepth)
    let scan: TopLevelScan | undefined
    const shared = { prefix: 0 }
    const earlier = this.findWhere(scope, -1, (body) => {
      scan = rescan(body.bytes.subarray(0, body.length), body.scan, bytes, maxDepth, shared)
      return scan !== undefined
    })
    scan ??= scanTopLevel(bytes, maxDepth)
    if (scan) this.keep(earlier, earlier ? shared.prefix : 0, bytes, scope, scan)
    return scan
  }

  /**
   * Keep this body: in the buffer of the one it followed (whose first `same` bytes it already holds), or
   * of the scope's oldest, or a new one.
   */
  private keep(earlier: ScannedBody | undefined, same: number, bytes: Buffer, scope: string, scan: TopLevelScan): void {
    const fits = (body: ScannedBody) => body.bytes.length >= bytes.length
    if (earlier && fits(earlier)) {
      bytes.copy(earlier.bytes, same, same)
      earlier.length = bytes.length
      earlier.scan = scan
      return
    }
    const body = this.recycle(scope, -1, fits)
    if (body) {
      bytes.copy(body.bytes)
      body.length = bytes.length
      body.scan = scan
      return
    }
    // Room for a few turns' growth, so a conversation keeps refilling one buffer.
    const kept = Buffer.allocUnsafeSlow(Math.ceil(bytes.length * 1.25) + 16 * 1024)
    bytes.copy(kept)
    this.add(scope, -1, { bytes: kept, length: bytes.length, scan })
  }
}

