import { readdirSync, readFileSync } from 'node:fs'
import { load } from './proxy/load.ts'
import { startMock, startProxy } from './proxy/processes.ts'
const body = { model: 'bench', messages: [{ role: 'user', content: 'hello' }] }
const mock = await startMock()
const proxy = await startProxy(mock.url, ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=/tmp/snap`], process.env.PROF_ROOT)
const running = load(`${proxy.url}/v1/chat/completions`, body, 32, 8, {})
await new Promise(r => setTimeout(r, Number(process.env.SNAP_AT ?? 5000)))
process.kill(proxy.pid, 'SIGUSR2')
await running
await new Promise(r => setTimeout(r, 3000))
await proxy.stop(); await mock.stop()
const file = readdirSync('/tmp/snap').filter(f => f.endsWith('.heapsnapshot')).map(f => `/tmp/snap/${f}`).at(-1)!
const snap = JSON.parse(readFileSync(file, 'utf8'))
const fields = snap.snapshot.meta.node_fields as string[]
const nf = fields.length, nameI = fields.indexOf('name'), typeI = fields.indexOf('type')
const counts = new Map<string, number>()
for (let i = 0; i < snap.nodes.length; i += nf) {
  const type = snap.snapshot.meta.node_types[0][snap.nodes[i + typeI]]
  if (type !== 'object') continue
  const name = snap.strings[snap.nodes[i + nameI]]
  counts.set(name, (counts.get(name) ?? 0) + 1)
}
for (const n of ['IncomingMessage', 'ServerResponse', 'PipelineRequest', 'H3Event', 'ClientBody', 'Socket', 'Request', 'FastTimer', 'WeakRef']) console.log(n, counts.get(n) ?? 0)
console.log(file)
