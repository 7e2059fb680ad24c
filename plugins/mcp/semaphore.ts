/** A count of slots; a waiter gives up when its signal aborts (its timeout or its client). */
export class Semaphore {
  private used = 0
  private readonly waiting: Array<() => void> = []

  constructor(private max: number) {}

  get active(): number { return this.used }

  get limit(): number { return this.max }

  /** A raised limit (a live config change) lets waiters in at once; a lowered one lets running holders finish. */
  set limit(value: number) {
    this.max = value
    while (this.used < this.max && this.waiting.length) this.waiting.shift()!()
  }

  /** Resolves with the release function once a slot is free; rejects with the signal's reason. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    const release = () => {
      this.used--
      if (this.used < this.max) this.waiting.shift()?.()
    }
    if (this.used < this.max) {
      this.used++
      return Promise.resolve(once(release))
    }
    return new Promise((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', quit)
        this.used++
        resolve(once(release))
      }
      const quit = () => {
        const at = this.waiting.indexOf(go)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(signal!.reason)
      }
      this.waiting.push(go)
      signal?.addEventListener('abort', quit, { once: true })
    })
  }
}

function once(fn: () => void): () => void {
  let done = false
  return () => {
    if (!done) {
      done = true
      fn()
    }
  }
}
