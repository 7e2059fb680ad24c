import { resolve } from 'node:path'

/**
 * One queue per file, process-wide: every read-modify-write of a file runs after the previous one has
 * finished, so concurrent writers never read the same old text and overwrite each other's change (one
 * module graph per process: core/plugin-host/module-graph.ts).
 */
const queues = new Map<string, Promise<unknown>>()

export function serializeFileTask<T>(path: string, task: () => Promise<T>): Promise<T> {
  const key = resolve(path)
  const previous = queues.get(key) ?? Promise.resolve()
  const run = previous.then(task, task)
  const tail = run.catch(() => {})
  queues.set(key, tail)
  // The map keeps only files with work queued.
  void tail.then(() => { if (queues.get(key) === tail) queues.delete(key) })
  return run
}
