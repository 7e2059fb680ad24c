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

/**
 * A synchronous transform backed by a worker thread: `transform(options)` as jiti calls it, `running()`.
 * A worker that is not up within `bootMs`, cannot load Babel, or does not answer within `waitMs` is
 * dropped, and this transpiler transpiles in this thread from then on, as jiti would. `idleMs`: the
 * worker ends this long after its last file.
 */
export function createTranspiler({ babel = babelPath, worker: workerUrl = new URL('./transpile-worker.mjs', import.meta.url), idleMs = 2_000, bootMs = 10_000, waitMs = 60_000 } = {}) {
  let thread // { worker, port, signal } while it runs
  let idleTimer
  let inThread = false

  const stop = () => {
    clearTimeout(idleTimer)
    const ending = thread
    thread = undefined
    if (ending) { ending.port.close(); void ending.worker.terminate() }
  }

  const start = () => {
    const { port1, port2 } = new MessageChannel()
    const signal = new Int32Array(new SharedArrayBuffer(8))
    const worker = new Worker(workerUrl, { workerData: { babelPath: babel, port: port2, signal }, transferList: [port2] })
    worker.unref()
    const started = { worker, port: port1, signal }
    worker.on('error', () => { if (thread === started) stop() })
    return started
  }

  const fallBack = options => {
    stop()
    inThread = true
    return transform(options)
  }

  function transform(options) {
    if (inThread) return require(babel)(options)
    clearTimeout(idleTimer)
    thread ??= start()
    const { port, signal } = thread
    if (Atomics.wait(signal, 1, 0, bootMs) === 'timed-out') return fallBack(options)
    Atomics.store(signal, 0, 0)
    port.postMessage(options)
    const woke = Atomics.wait(signal, 0, 0, waitMs)
    const reply = receiveMessageOnPort(port)?.message
    if (woke === 'timed-out' || !reply || reply.unavailable) return fallBack(options)
    idleTimer = setTimeout(stop, idleMs)
    idleTimer.unref()
    if (reply.thrown !== undefined) throw new Error(reply.thrown)
    return reply
  }

  return { transform, running: () => thread !== undefined }
}

/** jiti's `transform` option; undefined when jiti's Babel is not where this jiti keeps it (jiti then uses its own). */
export const transform = existsSync(babelPath) ? createTranspiler().transform : undefined
