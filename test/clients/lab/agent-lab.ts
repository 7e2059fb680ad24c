import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { readClientKey } from '../../../core/edge/client-key.ts'
import { familyModels, startFamilyProxy, type Family, type FamilyProxy } from '../../helpers/family-proxy.ts'

/** One request a client made to the proxy, as it arrived, with the status it got. */
export interface LabCall { method: string; path: string; status: number; headers: Record<string, string>; body: string; dropped?: string }

/** Where a run's files go and how it reaches the proxy: passed to the spec builder. */
export interface RunPlace { url: string; key: string; home: string; cwd: string; model: string; nonce: string }

export interface AgentSpec {
  /** Executable and arguments. */
  bin: string
  args: string[]
  /** Environment on top of the lab's (PATH, temp HOME and XDG folders, every outside call to the trap). */
  env?: Record<string, string>
  /** Files to write, relative to HOME (config) and to the working directory. */
  home?: Record<string, string>
  work?: Record<string, string>
  timeoutMs?: number
}

export interface AgentRun {
  code: number | null
  stdout: string
  stderr: string
  /** What this run asked of the proxy (told apart from concurrent runs by its own client key). */
  calls: LabCall[]
  /** Requests that tried to leave the machine (refused). */
  outside: string[]
  /** Upstream requests of `family` that carried this run's nonce. */
  upstream(family: Family): Array<Record<string, any>>
  place: RunPlace
}

/** An in-process client (an SDK) given its own key, to tell its calls apart. */
export interface SdkSession {
  key: string
  nonce: string
  model: string
  /** What this session asked of the proxy so far. */
  calls(): LabCall[]
  /** Upstream requests of `family` that carried the nonce. */
  upstream(family: Family): Array<Record<string, any>>
}

export interface AgentLab {
  setup: FamilyProxy
  /** Runs an agent once, headless, in a fresh HOME and working directory; its process group dies after the timeout. */
  run(family: Family, build: (place: RunPlace) => AgentSpec): Promise<AgentRun>
  /** A key and a nonce for an SDK test against `family`. */
  session(family: Family): SdkSession
}

/** Client keys handed out one per run, so concurrent runs' calls can be told apart. */
const runKeys = Array.from({ length: 400 }, (_, i) => `sk-lab-${i}`)

/**
 * A family proxy with a recorder, and a trap for every call that tries to leave the machine: each agent
 * gets HTTPS_PROXY and friends pointing at a local server that records and refuses them.
 */
export function useAgentLab(): AgentLab {
  const lab = {} as AgentLab
  const calls: Array<LabCall & { key?: string }> = []
  const outside: Array<{ at: number; what: string }> = []
  const scratch = mkdtempSync(join(tmpdir(), 'client-lab-'))
  let trap: Server
  let trapUrl = ''
  let nextKey = 0
  let nonces = 0

  beforeAll(async () => {
    lab.setup = await startFamilyProxy({ keys: runKeys })
    lab.setup.proxy.proxy.kernel.app.use(async (event, next) => {
      // WebSocket upgrades are answered by the socket layer, not by this response: a suite that cares records them itself.
      if (event.req.headers.get('upgrade')) return next()
      const body = event.req.method === 'POST' ? await event.req.clone().text().catch(() => '') : ''
      const response = await next()
      const status = response instanceof Response ? response.status : 200
      const dropped = response instanceof Response ? response.headers.get('x-proxy-dropped') ?? undefined : undefined
      calls.push({ key: readClientKey(event.req.headers, event.url), method: event.req.method, path: event.url.pathname + event.url.search, status, headers: Object.fromEntries(event.req.headers), body, ...(dropped && { dropped }) })
      return response
    })
    trap = createServer((req, res) => { outside.push({ at: Date.now(), what: `${req.method} ${req.url}` }); res.writeHead(403).end() })
    trap.on('connect', (req, socket: Socket) => {
      socket.on('error', () => {})
      outside.push({ at: Date.now(), what: `CONNECT ${req.url}` })
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
    })
    await new Promise<void>(resolve => trap.listen(0, '127.0.0.1', resolve))
    trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await lab.setup?.close()
    await new Promise(resolve => trap?.close(resolve))
    rmSync(scratch, { recursive: true, force: true })
  })

  const callsOf = (key: string) => calls.filter(call => call.key === key).map(({ key: _key, ...call }) => call)
  const upstreamOf = (family: Family, nonce: string) => lab.setup.upstreams[family].requests.filter(request => request.body.includes(nonce)).map(request => JSON.parse(request.body))
  const newKey = () => runKeys[nextKey++ % runKeys.length]!
  const newNonce = () => `n${++nonces}x${Math.random().toString(36).slice(2, 7)}`

  lab.session = (family) => {
    const key = newKey()
    const nonce = newNonce()
    return { key, nonce, model: familyModels[family], calls: () => callsOf(key), upstream: upstreamFamily => upstreamOf(upstreamFamily, nonce) }
  }

  lab.run = async (family, build) => {
    const key = newKey()
    const nonce = newNonce()
    const home = mkdtempSync(join(scratch, 'home-'))
    const cwd = join(home, 'work')
    mkdirSync(cwd)
    const place: RunPlace = { url: lab.setup.proxy.url, key, home, cwd, model: familyModels[family], nonce }
    const spec = build(place)
    for (const [base, files] of [[home, spec.home], [cwd, spec.work]] as const) {
      for (const [path, text] of Object.entries(files ?? {})) {
        mkdirSync(dirname(join(base, path)), { recursive: true })
        writeFileSync(join(base, path), text)
      }
    }
    const offline = { HTTPS_PROXY: trapUrl, HTTP_PROXY: trapUrl, ALL_PROXY: trapUrl, https_proxy: trapUrl, http_proxy: trapUrl, all_proxy: trapUrl, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost' }
    const env = {
      PATH: process.env.PATH!, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'),
      XDG_DATA_HOME: join(home, '.local/share'), XDG_STATE_HOME: join(home, '.local/state'), NO_COLOR: '1', CI: '1', ...offline, ...spec.env,
    }
    const started = Date.now()
    // stdin closed: with a pipe, some agents wait for piped input first.
    const child = spawn(spec.bin, spec.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk })
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
    const kill = () => { try { process.kill(-child.pid!, 'SIGKILL') } catch {} }
    const timer = setTimeout(kill, spec.timeoutMs ?? 150_000)
    const code = await new Promise<number | null>((resolve) => {
      child.on('error', (error) => { stderr += String(error); resolve(-1) })
      child.on('close', resolve)
    })
    clearTimeout(timer)
    const ended = Date.now()
    // Helpers an agent left behind (MCP servers, language servers) go with it.
    kill()
    rmSync(home, { recursive: true, force: true })
    return {
      code, stdout, stderr, place,
      calls: callsOf(key),
      // The trap cannot tell runs apart: an outside call during this run's lifetime counts against it.
      outside: outside.filter(call => call.at >= started && call.at <= ended).map(call => call.what),
      upstream: upstreamFamily => upstreamOf(upstreamFamily, nonce),
    }
  }
  return lab
}
