/** A count of slots; a waiter gives up when its signal aborts (its timeout or its client). */
export class Semaphore {
  private used = 0
  private readonly waiting: Array<() => void> = []

  constructor(public limit: number) {}

  get active(): number { return this.used }

  /** Resolves with the release function once a slot is free; rejects with the signal's reason. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    const release = () => {
      this.used--
      this.waiting.shift()?.()
    }
    if (this.used < this.limit) {
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
