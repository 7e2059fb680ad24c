import { Worker } from 'node:worker_threads'
import { ChurnMap } from '../data/churn-map.ts'

interface Pending { resolve(counts: number[]): void; reject(error: Error): void }
interface Reply { id?: number; counts?: number[]; error?: string; ready?: boolean }

let worker: Worker | undefined
let nextId = 0
/** Calls waiting for the thread (a ChurnMap: core/data/churn-map.ts says why not a Map). */
const pending = new ChurnMap<Pending>()

function failAll(error: Error): void {
  worker = undefined
  for (const entry of pending.values()) entry.reject(error)
  pending.clear()
}

/** One tokenizer thread per process, started on first use; it does not keep the process alive. */
function tokenWorker(): Worker {
  if (worker) return worker
  const started = new Worker(new URL('./token-worker.mjs', import.meta.url))
  started.unref()
  started.on('message', (reply: Reply) => {
    if (reply.id === undefined) return
    const entry = pending.get(reply.id)
    pending.delete(reply.id)
    if (reply.error !== undefined) entry?.reject(new Error(reply.error))
    else entry?.resolve(reply.counts!)
  })
  started.on('error', error => failAll(error))
  started.on('exit', code => failAll(new Error(`the token counting thread exited (${code})`)))
  return (worker = started)
}

/** Token counts of `texts`, computed off the event loop (a 1 MB text never stalls other requests). */
export function countInWorker(texts: string[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const id = nextId++
    pending.set(id, { resolve, reject })
    tokenWorker().postMessage({ id, texts })
  })
}
