import { onClientGone, type ClientSignal } from '../edge/client-abort.ts'

/** Wait, but give up at once when the client goes away. */
export function sleep(ms: number, signal?: ClientSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      unsubscribe?.()
      resolve()
    }
    const timer = setTimeout(done, ms)
    const unsubscribe = signal && onClientGone(signal, done)
  })
}
