/**
 * Tasks run one at a time per key, in the order they came, tasks of other keys alongside: each starts
 * once the previous one of its key has settled (resolved or failed). The map holds only keys with work
 * queued.
 */
export function createKeyedQueue(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const queues = new Map<string, Promise<unknown>>()
  return (key, task) => {
    const run = (queues.get(key) ?? Promise.resolve()).then(task, task)
    const tail = run.catch(() => {})
    queues.set(key, tail)
    void tail.then(() => { if (queues.get(key) === tail) queues.delete(key) })
    return run
  }
}
