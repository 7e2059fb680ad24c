// Loaded with --import into a bench proxy: counts the promises the process creates (async_hooks), and on
// SIGUSR2 writes the count so far to PROMISE_COUNT_FILE. A count, unlike CPU time, does not move with the
// machine's load.
import { createHook } from 'node:async_hooks'
import { writeFileSync } from 'node:fs'

let promises = 0
createHook({ init(_id, type) { if (type === 'PROMISE') promises++ } }).enable()
process.on('SIGUSR2', () => writeFileSync(process.env.PROMISE_COUNT_FILE ?? '/tmp/proxy-promises.txt', String(promises)))
