import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { clientKey, families, familyModels, greeting, startFamilyProxy, type Family, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * The real Codex CLI (@openai/codex 0.169.0, a native binary) in `codex exec --json`, configured the
 * way its users add a custom provider: `config.toml` in CODEX_HOME with `[model_providers.proxy]`.
 * Codex 0.169 speaks only the responses wire API (`wire_api = "chat"` is refused at start-up); a custom
 * provider uses HTTP `POST /v1/responses` unless `supports_websockets = true`, which switches it to the
 * responses WebSocket (`GET /v1/responses` + upgrade) with a `generate: false` warm-up and
 * `previous_response_id` chaining: both transports run against every upstream family.
 */

const codex = fileURLToPath(new URL('../../node_modules/.bin/codex', import.meta.url))
const probe = spawnSync(codex, ['--version'], { encoding: 'utf8', timeout: 15_000 })
const unavailable = probe.status === 0 ? undefined : `codex binary not runnable here: ${(probe.stderr || String(probe.error)).trim()}`
if (unavailable) console.warn(`skipping Codex CLI tests: ${unavailable}`)

/** Any call that tries to leave the machine fails at once instead (tests never reach the internet). */
const offline = { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', ALL_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1,localhost', https_proxy: 'http://127.0.0.1:9', http_proxy: 'http://127.0.0.1:9', all_proxy: 'http://127.0.0.1:9', no_proxy: '127.0.0.1,localhost' }

type Transport = 'http' | 'websocket'
interface Call { method: string; path: string; status: number; upgrade?: boolean }
interface Run { code: number | null; events: any[]; stderr: string }

let setup: FamilyProxy
let calls: Call[] = []
const scratch = mkdtempSync(join(tmpdir(), 'codex-cli-'))

/** Record what Codex asks of the proxy at the socket level: HTTP requests and WebSocket upgrades with their status. */
function recordCalls(server: Server) {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    res.on('finish', () => calls.push({ method: req.method!, path: req.url!, status: res.statusCode }))
  })
  server.prependListener('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const write = socket.write
    socket.write = function (this: Duplex, chunk: unknown, ...rest: unknown[]) {
      socket.write = write
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(String(chunk))?.[1] ?? 0)
      calls.push({ method: req.method!, path: req.url!, status, upgrade: true })
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest)
    } as Duplex['write']
  })
}

beforeAll(async () => {
  if (unavailable) return
  setup = await startFamilyProxy()
  recordCalls((setup.proxy.server.server as { node?: { server?: Server } }).node!.server!)
})
afterAll(async () => {
  await setup?.close()
  rmSync(scratch, { recursive: true, force: true })
})
beforeEach(() => {
  calls = []
  if (setup) for (const upstream of Object.values(setup.upstreams)) upstream.requests.length = 0
})

/** The config.toml a user writes for the proxy, plus the switches that keep Codex from calling home. */
function configToml(model: string, transport: Transport): string {
  return `model = "${model}"
model_provider = "proxy"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = false
remote_plugin = false
apps = false
in_app_updates = false

[model_providers.proxy]
name = "model proxy"
base_url = "${setup.proxy.url}/v1"
env_key = "PROXY_API_KEY"
wire_api = "responses"
supports_websockets = ${transport === 'websocket'}
`
}

/** `codex exec --json` in a fresh CODEX_HOME/HOME; the whole process group is killed on timeout. */
function runCodex(model: string, transport: Transport, prompt: string): Promise<Run> {
  const home = mkdtempSync(join(scratch, 'home-'))
  const codexHome = join(home, '.codex')
  const cwd = join(home, 'work')
  mkdirSync(codexHome, { recursive: true })
  mkdirSync(cwd)
  writeFileSync(join(codexHome, 'config.toml'), configToml(model, transport))
  const env = {
    PATH: process.env.PATH!, HOME: home, CODEX_HOME: codexHome, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local/share'), XDG_STATE_HOME: join(home, '.local/state'), PROXY_API_KEY: clientKey, RUST_LOG: 'warn', NO_COLOR: '1', ...offline,
  }
  const child = spawn(codex, ['exec', '--json', '--strict-config', '--skip-git-repo-check', '--ephemeral', '--color', 'never', prompt], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
  const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL') } catch {} }, 25_000)
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer)
      rmSync(home, { recursive: true, force: true })
      const events = stdout.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line))
      resolve({ code, events, stderr })
    })
  })
}

const agentMessages = (run: Run) => run.events.filter(event => event.type === 'item.completed' && event.item.type === 'agent_message').map(event => event.item.text as string)
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Whatever a stray outside call logs when it hits the dead proxy: none may appear. */
const outsideCall = /error sending request for url \(https?:\/\/(?!127\.0\.0\.1)|127\.0\.0\.1 port 9\b/

function expectCleanRun(run: Run) {
  expect(run.code, run.stderr.slice(-3000)).toBe(0)
  expect(run.events.map(event => event.type)).toContain('turn.completed')
  expect(run.events.filter(event => event.type === 'turn.failed' || event.type === 'error')).toEqual([])
  expect(run.stderr).not.toMatch(outsideCall)
}

/** The only endpoint Codex uses: POST /v1/responses over HTTP, or one upgrade of GET /v1/responses. */
function expectEndpoints(transport: Transport) {
  if (transport === 'http') {
    expect(calls.length).toBeGreaterThan(0)
    expect(calls, JSON.stringify(calls)).toEqual(calls.map(() => ({ method: 'POST', path: '/v1/responses', status: 200 })))
  } else {
    expect(calls, JSON.stringify(calls)).toEqual([{ method: 'GET', path: '/v1/responses', status: 101, upgrade: true }])
  }
}

/** The tool calls and the tool results (by id, or by name where the format has no ids) in an upstream request. */
const generateTurn = (body: any) => {
  const parts = body.contents.flatMap((content: any) => content.parts ?? [])
  return { calls: parts.filter((part: any) => part.functionCall).map((part: any) => part.functionCall.name), results: parts.filter((part: any) => part.functionResponse).map((part: any) => part.functionResponse.name) }
}
const toolTurn: Record<Family, (body: any) => { calls: string[]; results: string[] }> = {
  compat: body => ({
    calls: body.messages.flatMap((message: any) => message.tool_calls?.map((call: any) => call.id) ?? []),
    results: body.messages.filter((message: any) => message.role === 'tool').map((message: any) => message.tool_call_id),
  }),
  gamma: body => ({
    calls: body.input.filter((item: any) => item.type === 'function_call').map((item: any) => item.call_id),
    results: body.input.filter((item: any) => item.type === 'function_call_output').map((item: any) => item.call_id),
  }),
  beta: (body) => {
    const blocks = body.messages.flatMap((message: any) => Array.isArray(message.content) ? message.content : [])
    return { calls: blocks.filter((block: any) => block.type === 'tool_use').map((block: any) => block.id), results: blocks.filter((block: any) => block.type === 'tool_result').map((block: any) => block.tool_use_id) }
  },
  alpha: generateTurn,
  delta: generateTurn,
}

const transports: Transport[] = ['http', 'websocket']
const cases = families.flatMap(family => transports.map(transport => ({ family, transport })))

describe.skipIf(!!unavailable).each(cases)('Codex CLI 0.169.0 ($transport) -> $family upstream', ({ family, transport }: { family: Family; transport: Transport }) => {
  const model = familyModels[family]

  it('answers a prompt with the upstream\'s text, one upstream call', { timeout: 30_000 }, async () => {
    const prompt = `Say hi politely to ${model}`
    const run = await runCodex(model, transport, prompt)
    expectCleanRun(run)
    // Codex sends its environment context as a user message just before the prompt: the messages and
    // generateContent formats merge consecutive user turns, so the mock echoes both there.
    expect(agentMessages(run).at(-1)).toMatch(new RegExp(`^${escape(greeting(''))}(<environment_context>[\\s\\S]*</environment_context> )?${escape(prompt)}$`))
    expectEndpoints(transport)
    // The WebSocket warm-up (`generate: false`) is answered by the proxy: no upstream call is spent on it.
    expect(setup.upstreams[family].requests).toHaveLength(1)
    // ...and what it carried (Codex's instructions) still reaches the upstream with the prompt.
    expect(setup.upstreams[family].requests[0]!.body).toContain('You are a coding agent running in the Codex CLI')
  })

  it('runs a tool round trip, the upstream seeing the whole conversation each time', { timeout: 30_000 }, async () => {
    // The mock calls a tool the prompt names; its `{query}` arguments are not what exec_command takes,
    // so Codex answers with a tool error, which the mock then quotes.
    const prompt = 'please call exec_command now'
    const run = await runCodex(model, transport, prompt)
    expectCleanRun(run)
    expect(agentMessages(run).at(-1)).toMatch(/^The tool said: failed to parse function arguments: missing field `cmd`/)
    expectEndpoints(transport)
    const bodies = setup.upstreams[family].requests.map(request => request.body)
    expect(bodies).toHaveLength(2)
    // Over the socket Codex sends only the tool output plus `previous_response_id`: the proxy must have
    // put the prompt and the tool call back in front of it.
    expect(bodies[1]).toContain(prompt)
    const turn = toolTurn[family](JSON.parse(bodies[1]!))
    expect(turn.calls).toHaveLength(1)
    expect(turn.results).toEqual(turn.calls)
  })
})
