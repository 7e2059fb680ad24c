// Promises a small chat request creates in the proxy (whole answer and stream), for one tree or several
// side by side: the count is the same run after run, where CPU time on a shared machine is not.
//   node --import jiti/register test/bench/promises.ts [tree ...]      (default: this tree)
import { readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { load } from './proxy/load.ts'
import { startMock, startProxy } from './proxy/processes.ts'

const counter = fileURLToPath(new URL('./proxy/promise-counter.mjs', import.meta.url))
const file = `/tmp/proxy-promises-${process.pid}.txt`
process.env.PROMISE_COUNT_FILE = file
const trees = process.argv.slice(2)
const mock = await startMock()
try {
  for (const tree of trees.length ? trees : ['.']) {
    for (const stream of [false, true]) {
      const proxy = await startProxy(mock.url, ['--import', counter], resolve(tree))
      const body = { model: 'bench', messages: [{ role: 'user', content: 'hello' }], stream }
      const url = `${proxy.url}/v1/chat/completions`
      const count = async () => {
        process.kill(proxy.pid, 'SIGUSR2')
        await new Promise(done => setTimeout(done, 300))
        return Number(readFileSync(file, 'utf8'))
      }
      // Warmed first: the first requests load modules lazily.
      await load(url, body, 4, 1)
      const before = await count()
      const result = await load(url, body, 4, 2)
      const perRequest = (await count() - before) / result.requests
      console.log(`${tree} ${stream ? 'stream' : 'whole answer'}: ${perRequest.toFixed(1)} promises per request (${result.requests} requests)`)
      await proxy.stop()
    }
  }
} finally {
  await mock.stop()
  rmSync(file, { force: true })
}
