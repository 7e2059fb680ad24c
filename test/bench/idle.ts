// Idle memory of fresh proxy processes, trees side by side and the floor beside them: each process is
// started, sent a few streamed 76 KB requests (same format and translated: the request path's modules
// loaded and warm), collected (memory-on-signal.mjs) and read: RSS, V8 heap used and reserved; with
// IDLE_SCRIPTS=1 also the characters of script source parsed (from the inspector, which holds on to
// scripts itself: the memory figures of such a run are not the ordinary process's).
//   node --import jiti/register test/bench/idle.ts [tree ...]     (default: this tree; IDLE_ROUNDS, 5)
//   git worktree add /tmp/base HEAD~1 && ln -s "$PWD/node_modules" /tmp/base/node_modules
//   node --import jiti/register test/bench/idle.ts /tmp/base .
// Rounds interleave the sides (floor, tree 1, tree 2, floor, ...); medians, and each side's spread.
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { agentBody, agentHeaders } from './proxy/agent-body.ts'
import { median } from './proxy/load.ts'
import { benchKey, startMock, startPassthrough, startProxy, type Running } from './proxy/processes.ts'

const trees = process.argv.slice(2).length ? process.argv.slice(2).map(tree => resolve(tree)) : [resolve('.')]
const rounds = Number(process.env.IDLE_ROUNDS ?? 5)
const preload = (name: string) => ['--import', fileURLToPath(new URL(`./proxy/${name}`, import.meta.url))]
const scripts = process.env.IDLE_SCRIPTS === '1'
const nodeArgs = ['--expose-gc', ...preload('memory-on-signal.mjs'), ...(scripts ? preload('script-chars.mjs') : [])]

/** One line the process prints on SIGUSR2 (memory-on-signal.mjs, script-chars.mjs), parsed. */
function onSignal(running: Running): Promise<{ memory: Record<string, number>; chars: number }> {
  return new Promise(resolve => {
    let text = ''
    const onData = (chunk: Buffer) => {
      text += chunk
      const memory = /memory (\{.*\})\n/.exec(text)
      const chars = /script chars (\d+)\n/.exec(text)
      if (!memory || (scripts && !chars)) return
      running.child.stdout!.off('data', onData)
      resolve({ memory: JSON.parse(memory[1]!).now, chars: chars ? Number(chars[1]) : Number.NaN })
    }
    running.child.stdout!.on('data', onData)
    running.child.kill('SIGUSR2')
  })
}

const mock = await startMock(0)
const sides = ['floor', ...trees]
const results = new Map<string, Array<{ rss: number; heapUsed: number; heapTotal: number; chars: number }>>(sides.map(side => [side, []]))
try {
  // One start of each tree first, not counted: a tree's first start after a change compiles its files (jiti's cache) and loads the compiler.
  for (const tree of trees) await (await startProxy(mock.url, [], tree)).stop()
  for (let round = 0; round < rounds; round++) {
    for (const side of sides) {
      const running = side === 'floor' ? await startPassthrough(mock.url, nodeArgs) : await startProxy(mock.url, nodeArgs, side)
      try {
        for (const model of ['bench-claude', 'bench']) for (let i = 0; i < 3; i++) {
          const response = await fetch(`${running.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...agentHeaders() }, body: JSON.stringify({ ...agentBody(76, model), model, stream: true }) })
          await response.text()
        }
        const { memory, chars } = await onSignal(running)
        const mb = (bytes: number) => bytes / 1048576
        results.get(side)!.push({ rss: mb(memory.rss!), heapUsed: mb(memory.heapUsed!), heapTotal: mb(memory.heapTotal!), chars })
      } finally {
        await running.stop()
      }
    }
  }
} finally {
  await mock.stop()
}
const cell = (values: number[], digits: number) => `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`
console.table(sides.map(side => {
  const runs = results.get(side)!
  return { side, 'RSS MB': cell(runs.map(r => r.rss), 1), 'heap used MB': cell(runs.map(r => r.heapUsed), 2), 'heap total MB': cell(runs.map(r => r.heapTotal), 1), ...(scripts && { 'script source K chars': cell(runs.map(r => r.chars / 1000), 0) }) }
}))
