import type { ProxyKernel } from 'model-proxy'

/** One credential's upstream attempts since this instance started. */
interface Tally { success: number; errors: number; upstreamMs: number; answered: number; firstByteMs: number; firstBytes: number; lastError?: { status: number; at: number } }

/** What `GET /credentials` shows per credential (our addition): counts, mean latencies, the last failure. */
export interface CredentialStats {
  success: number
  errors: number
  /** Mean milliseconds from sending to the end of the upstream's answer (answered attempts). */
  'latency-ms'?: number
  /** Mean milliseconds from sending to the upstream's response headers. */
  'first-byte-ms'?: number
  'last-error'?: { status: number; at: string }
}

/**
 * Per-credential success and error counts and latency, counted from the attempts themselves (a retry
 * that failed on one credential is that credential's error even when the next one answered), in memory
 * per instance. Counting is two map lookups per attempt.
 */
export function trackCredentialStats(kernel: ProxyKernel): (id: string) => CredentialStats {
  const tallies = new Map<string, Tally>()
  const tallyOf = (id: string) => {
    let tally = tallies.get(id)
    if (!tally) tallies.set(id, tally = { success: 0, errors: 0, upstreamMs: 0, answered: 0, firstByteMs: 0, firstBytes: 0 })
    return tally
  }
  kernel.hooks.hook('attempt-result', (result) => {
    // An attempt its client called off (499) says nothing about the credential.
    if (result.status === 499 && result.action !== 'done') return
    const tally = tallyOf(result.candidate.credential.id)
    if (result.firstByteMs !== undefined) {
      tally.firstByteMs += result.firstByteMs
      tally.firstBytes++
    }
    if (result.action === 'done') tally.success++
    else {
      tally.errors++
      tally.lastError = { status: result.status, at: Date.now() }
    }
  })
  kernel.hooks.hook('after-response', (ctx) => {
    if (!ctx.candidate || ctx.upstreamMs === undefined || ctx.status >= 400) return
    const tally = tallyOf(ctx.candidate.credential.id)
    tally.upstreamMs += ctx.upstreamMs
    tally.answered++
  })
  return (id) => {
    const tally = tallies.get(id)
    if (!tally) return { success: 0, errors: 0 }
    return {
      success: tally.success,
      errors: tally.errors,
      ...(tally.answered && { 'latency-ms': Math.round(tally.upstreamMs / tally.answered) }),
      ...(tally.firstBytes && { 'first-byte-ms': Math.round(tally.firstByteMs / tally.firstBytes) }),
      ...(tally.lastError && { 'last-error': { status: tally.lastError.status, at: new Date(tally.lastError.at).toISOString() } }),
    }
  }
}
