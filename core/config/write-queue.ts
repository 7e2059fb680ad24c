import { resolve } from 'node:path'
import { createKeyedQueue } from '../data/keyed-queue.ts'

/**
 * One queue per file, process-wide: every read-modify-write of a file runs after the previous one has
 * finished, so concurrent writers never read the same old text and overwrite each other's change (one
 * module graph per process: core/plugin-host/module-graph.ts).
 */
const perFile = createKeyedQueue()

export function serializeFileTask<T>(path: string, task: () => Promise<T>): Promise<T> {
  return perFile(resolve(path), task)
}
