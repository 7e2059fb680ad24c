/**
 * Requests and errors over the last few minutes, in one-second buckets: constant memory at any
 * request rate, no timers (old buckets are overwritten as time moves on).
 */
export class RequestWindow {
  private seconds: Int32Array
  private requests: Int32Array
  private errors: Int32Array
  private clientMistakes: Int32Array

  constructor(readonly size = 300) {
    this.seconds = new Int32Array(size).fill(-1)
    this.requests = new Int32Array(size)
    this.errors = new Int32Array(size)
    this.clientMistakes = new Int32Array(size)
  }

  /** `failed`: the proxy or its upstream failed; `clientMistake`: the client's own request was refused (not an error). */
  add(now: number, failed: boolean, clientMistake = false): void {
    const second = Math.floor(now / 1000)
    const slot = second % this.size
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second
      this.requests[slot] = 0
      this.errors[slot] = 0
      this.clientMistakes[slot] = 0
    }
    this.requests[slot]!++
    if (failed) this.errors[slot]!++
    else if (clientMistake) this.clientMistakes[slot]!++
  }

  /** Totals over the last `span` seconds (the current second included). */
  count(now: number, span = this.size): { requests: number; errors: number; clientMistakes: number } {
    const second = Math.floor(now / 1000)
    let requests = 0
    let errors = 0
    let clientMistakes = 0
    for (let slot = 0; slot < this.size; slot++) {
      const at = this.seconds[slot]!
      if (at > second - Math.min(span, this.size) && at <= second) {
        requests += this.requests[slot]!
        errors += this.errors[slot]!
        clientMistakes += this.clientMistakes[slot]!
      }
    }
    return { requests, errors, clientMistakes }
  }
}
