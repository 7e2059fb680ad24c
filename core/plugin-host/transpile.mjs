// jiti's TypeScript transform, run in a worker thread that ends when idle. jiti transpiles a file only
// when its cache has none (the first start after an install or upgrade, every start of a container
// whose /tmp is new), and its own transform loads Babel (1.5 M characters of source) into the process
// for the rest of its life: a cold start was measured at 240 MB resident and 36 MB of heap after a full
// collection, against 104 and 21 warm. Here Babel lives in the worker; the server keeps only the code.
// Plain JS: bin.mjs and the token worker import it before jiti runs.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { receiveMessageOnPort, MessageChannel, Worker } from 'node:worker_threads'

const require = createRequire(import.meta.url)
// jiti's own lazy transform requires this file; its package exports do not name it, so by path.
const babelPath = join(dirname(require.resolve('jiti')), '../dist/babel.cjs')
const idleMs = 2_000
const waitMs = 60_000

let thread // { worker, port, signal } while it runs
let idleTimer

function startThread() {
  const { port1, port2 } = new MessageChannel()
  const signal = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(new URL('./transpile-worker.mjs', import.meta.url), { workerData: { babelPath, port: port2, signal }, transferList: [port2] })
  worker.unref()
  worker.on('error', () => stopThread())
  return { worker, port: port1, signal }
}

function stopThread() {
  clearTimeout(idleTimer)
  const ending = thread
  thread = undefined
  if (ending) { ending.port.close(); void ending.worker.terminate() }
}

/** In this thread, as jiti would (a worker that does not answer in time). */
function inProcess(options) {
  return require(babelPath)(options)
}

/** jiti's `transform` option: `(options) => { code, error? }`, synchronous, as jiti calls it. */
function transpileInWorker(options) {
  clearTimeout(idleTimer)
  thread ??= startThread()
  const { port, signal } = thread
  Atomics.store(signal, 0, 0)
  port.postMessage(options)
  const woke = Atomics.wait(signal, 0, 0, waitMs)
  const reply = receiveMessageOnPort(port)?.message
  if (woke === 'timed-out' || !reply) {
    stopThread()
    return inProcess(options)
  }
  idleTimer = setTimeout(stopThread, idleMs)
  idleTimer.unref()
  return reply
}

/** Undefined when jiti's Babel is not where this jiti keeps it: jiti then uses its own transform. */
export const transform = existsSync(babelPath) ? transpileInWorker : undefined
