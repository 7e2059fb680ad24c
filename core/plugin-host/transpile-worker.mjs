// The thread of transpile.mjs: Babel loaded here, each file transformed and answered on the port, the
// waiting thread woken through the shared signal (slot 0: answered; slot 1: this thread is up).
import { createRequire } from 'node:module'
import { workerData } from 'node:worker_threads'

const { babelPath, port, signal } = workerData
let babel
try {
  babel = createRequire(import.meta.url)(babelPath)
} catch {}
port.on('message', options => {
  let reply
  if (!babel) reply = { unavailable: true }
  else {
    try {
      const { code, error } = babel(options)
      reply = { code, error: error === undefined ? undefined : String(error?.stack ?? error) }
    } catch (error) {
      reply = { thrown: String(error?.message ?? error) }
    }
  }
  port.postMessage(reply)
  Atomics.store(signal, 0, 1)
  Atomics.notify(signal, 0)
})
Atomics.store(signal, 1, 1)
Atomics.notify(signal, 1)
