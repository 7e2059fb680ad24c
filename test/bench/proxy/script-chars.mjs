// Preloaded by test/bench/idle.ts: on SIGUSR2, one line on stdout with the characters of every script
// this process has parsed (V8 keeps a script's source as long as any of its functions lives):
//   script chars <n>
import { Session } from 'node:inspector'

const session = new Session()
session.connect()
const lengths = new Map()
session.on('Debugger.scriptParsed', ({ params }) => { lengths.set(params.scriptId, params.length ?? 0) })
session.post('Debugger.enable')
process.on('SIGUSR2', () => {
  let chars = 0
  for (const length of lengths.values()) chars += length
  console.log(`script chars ${chars}`)
})
