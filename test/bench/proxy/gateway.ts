// Optional peer in the same table: `npm run bench -- --gateway` installs @portkey-ai/gateway into a temp
// folder on first use (never into this repo) and measures it beside the floor and this proxy.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request, Agent } from 'undici'
import { load, median, type LoadResult } from './load.ts'
import { benchKey, cpuMicros, type Running } from './processes.ts'
import { freePort } from './free-port.ts'

const folder = join(tmpdir(), 'model-proxy-bench-portkey')
// Its streaming works with these two pinned (newer @hono/node-server breaks it on Node 20).
const manifest = {
  name: 'bench-portkey', private: true,
  dependencies: { '@portkey-ai/gateway': '1.15.2', 'hono': '4.9.7', '@hono/node-server': '1.13.5' },
  overrides: { 'hono': '4.9.7', '@hono/node-server': '1.13.5' },
}
export const gatewayName = 'portkey 1.15.2'

function install(): string {
  const entry = join(folder, 'node_modules/@portkey-ai/gateway/build/start-server.js')
  if (existsSync(entry)) return entry
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest))
  console.log(`installing ${gatewayName} into ${folder} ...`)
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: 'inherit' })
  return entry
}


/** The gateway as its own process, routing to the bench mock as an OpenAI-compatible custom host. */
export async function startGateway(upstream: string): Promise<Running & { headers: Record<string, string> }> {
  const entry = install()
  const port = await freePort()
  const child = spawn(process.execPath, [entry, `--port=${port}`, '--headless'], { cwd: folder, stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  const headers = { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstream}/v1` }
  for (let i = 0; i < 100; i++) {
    const ok = await request(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...headers }, body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'hi' }] }) })
      .then(async (response) => { await response.body.text(); return response.statusCode === 200 }, () => false)
    if (ok) break
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  return { url, pid: child.pid!, child, headers, stop: () => new Promise(done => { child.once('exit', () => done()); child.kill('SIGTERM') }) }
}

const chatBody = (stream = false) => ({ model: 'bench', stream, messages: [{ role: 'user', content: 'hello' }] })
const fmt = (n: number, digits = 2) => Number(n.toFixed(digits))

/** Floor, this proxy and the gateway, interleaved per round: throughput, c=1 latency, stream TTFB, CPU. */
export async function gatewayRows(floor: string, proxy: Running, gateway: Running & { headers: Record<string, string> }, seconds: number, rounds: number) {
  const sides = [{ name: 'floor', url: floor, headers: {} }, { name: 'proxy', url: proxy.url, headers: {} }, { name: 'gateway', url: gateway.url, headers: gateway.headers }]
  const runs: Record<string, LoadResult[]> = { floor: [], proxy: [], gateway: [] }
  const cpu: Record<string, number[]> = { proxy: [], gateway: [] }
  for (let round = 0; round < rounds; round++) {
    for (const side of sides) {
      const pid = side.name === 'proxy' ? proxy.pid : side.name === 'gateway' ? gateway.pid : undefined
      const before = pid ? cpuMicros(pid) : 0
      const result = await load(`${side.url}/v1/chat/completions`, chatBody(), 32, seconds, side.headers)
      runs[side.name]!.push(result)
      if (pid) cpu[side.name]!.push((cpuMicros(pid) - before) / result.requests)
    }
  }
  const agent = new Agent({ keepAliveTimeout: 10_000 })
  const timed = async (url: string, headers: Record<string, string>, stream: boolean) => {
    const start = performance.now()
    const response = await request(`${url}/v1/chat/completions`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...(stream && { accept: 'text/event-stream' }), ...headers }, body: JSON.stringify(chatBody(stream)) })
    let first = 0
    for await (const _chunk of response.body) if (!first) first = performance.now() - start
    return { first, last: performance.now() - start }
  }
  const sequential: Record<string, { c1: number[]; ttfb: number[] }> = { floor: { c1: [], ttfb: [] }, proxy: { c1: [], ttfb: [] }, gateway: { c1: [], ttfb: [] } }
  for (let i = 0; i < 200; i++) {
    for (const side of sides) {
      sequential[side.name]!.c1.push((await timed(side.url, side.headers, false)).last)
      sequential[side.name]!.ttfb.push((await timed(side.url, side.headers, true)).first)
    }
  }
  await agent.close()
  const floorRps = median(runs.floor!.map(r => r.rps))
  return sides.map(({ name }) => ({
    side: name === 'gateway' ? gatewayName : name,
    'rps c=32': fmt(median(runs[name]!.map(r => r.rps)), 0),
    'ratio to floor': fmt(median(runs[name]!.map(r => r.rps)) / floorRps),
    'p99 ms c=32': median(runs[name]!.map(r => r.p99)),
    'p50 ms c=1': fmt(median(sequential[name]!.c1), 3),
    'stream TTFB ms': fmt(median(sequential[name]!.ttfb), 3),
    'CPU µs/request': name === 'floor' ? '' : fmt(median(cpu[name]!), 0),
    errors: runs[name]!.reduce((sum, r) => sum + r.errors, 0),
  }))
}
