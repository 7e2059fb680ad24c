// The tokenizer's thread: loading its tables (~0.7 s) and counting run here, never on the event loop
// that serves requests. Plain JS so Node can start it; the counting itself is TypeScript, through jiti.
import { parentPort } from 'node:worker_threads'
import { createJiti } from 'jiti'
import { transform } from '../plugin-host/transpile.mjs'

const jiti = createJiti(import.meta.url, { interopDefault: false, transform })
const { countTexts } = await jiti.import('./token-counter.ts')

parentPort.on('message', ({ id, texts }) => {
  try {
    parentPort.postMessage({ id, counts: countTexts(texts) })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) })
  }
})
parentPort.postMessage({ ready: true })
