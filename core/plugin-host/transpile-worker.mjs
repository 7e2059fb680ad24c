// The thread of transpile.mjs: Babel loaded here, each file transformed and answered on the port, the
// waiting thread woken through the shared signal.
import { createRequire } from 'node:module'
import { workerData } from 'node:worker_threads'

const { babelPath, port, signal } = workerData
let babel
port.on('message', options => {
  let reply
  try {
    babel ??= createRequire(import.meta.url)(babelPath)
    const { code, error } = babel(options)
    reply = { code, error: error === undefined ? undefined : String(error?.stack ?? error) }
  } catch (error) {
    reply = { code: '', error: String(error?.stack ?? error) }
  }
  port.postMessage(reply)
  Atomics.store(signal, 0, 1)
  Atomics.notify(signal, 0)
})
