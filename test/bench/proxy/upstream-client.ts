// The upstream client alone: this process sends the 150 KB agent request to the bench mock at c=16 and
// reads the 200-delta stream, with undici (what the proxy uses) and with Node's own http client. CPU per
// request is this process's (the harness costs the same for each). Rounds interleave the clients.
// Why it exists: the stack bench's "Node server + Node client" forwarder costs ~100 µs less per request
// than "Node server + undici", which suggested Node's client as the proxy's sender. Measured alone, Node's
// client costs more than undici's (docs/benchmarks.md, 2026-11-26 night), so the difference lies elsewhere.
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent, type Dispatcher } from 'undici'
import { agentBody, agentHeaders } from './agent-body.ts'
import { median } from './load.ts'
import { startMock } from './processes.ts'

type Send = (origin: string, body: Buffer, headers: Record<string, string>) => Promise<number>

const undiciAgent = new Agent({ keepAliveTimeout: 30_000, pipelining: 1 })
const nodeAgent = new HttpAgent({ keepAlive: true, scheduling: 'lifo' })

/** Each reads the answer to its end and returns its status. */
const clients: Record<string, Send> = {
  'undici request()': async (origin, body, headers) => {
    const res = await undiciAgent.request({ origin, path: '/v1/messages', method: 'POST', headers, body })
    await new Promise<void>((resolve, reject) => { res.body.on('data', () => {}).once('end', resolve).once('error', reject) })
    return res.statusCode
  },
  'undici dispatch()': (origin, body, headers) => new Promise((resolve, reject) => {
    let status = 0
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart() {},
      onResponseStart(_c, statusCode) { status = statusCode },
      onResponseData() {},
      onResponseEnd() { resolve(status) },
      onResponseError(_c, error) { reject(error) },
    }
    undiciAgent.dispatch({ origin, path: '/v1/messages', method: 'POST', headers, body }, handler)
  }),
  'node:http request()': (origin, body, headers) => new Promise((resolve, reject) => {
    const url = new URL(origin)
    const req = httpRequest({ hostname: url.hostname, port: url.port, path: '/v1/messages', method: 'POST', headers, agent: nodeAgent }, (res) => {
      res.on('data', () => {}).once('end', () => resolve(res.statusCode!)).once('error', reject)
    })
    req.once('error', reject)
    req.end(body)
  }),
}

async function round(send: Send, origin: string, body: Buffer, headers: Record<string, string>, ms: number) {
  let requests = 0
  let errors = 0
  const until = performance.now() + ms
  const cpu = process.cpuUsage()
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (performance.now() < until) {
      if (await send(origin, body, headers) !== 200) errors++
      requests++
    }
  }))
  const used = process.cpuUsage(cpu)
  return { cpu: (used.user + used.system) / requests, rps: requests / (ms / 1000), errors }
}

export async function benchUpstreamClient(): Promise<Array<Record<string, string | number>>> {
  const mock = await startMock()
  const body = Buffer.from(JSON.stringify(agentBody(150, 'bench-claude')))
  const headers = { ...agentHeaders(), 'content-type': 'application/json', 'x-api-key': 'up' }
  const seconds = Number(process.env.BENCH_SECONDS ?? 2)
  const results = new Map<string, Array<{ cpu: number; rps: number; errors: number }>>()
  try {
    for (const send of Object.values(clients)) await round(send, mock.url, body, headers, 1000)
    for (let r = 0; r < 5; r++) {
      for (const [name, send] of Object.entries(clients)) {
        const list = results.get(name) ?? []
        list.push(await round(send, mock.url, body, headers, seconds * 1000))
        results.set(name, list)
      }
    }
  } finally {
    await mock.stop()
    await undiciAgent.close()
    nodeAgent.destroy()
  }
  return [...results].map(([client, list]) => ({
    client,
    'CPU µs/request by round': list.map(r => r.cpu.toFixed(0)).join(' '),
    'median CPU µs/request': Math.round(median(list.map(r => r.cpu))),
    'median rps': Math.round(median(list.map(r => r.rps))),
    errors: list.reduce((sum, r) => sum + r.errors, 0),
  }))
}
