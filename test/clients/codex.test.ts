import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { beforeAll, describe, expect, it } from 'vitest'
import { readClientKey } from '../../core/edge/client-key.ts'
import { families, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type AgentRun, type AgentSpec, type RunPlace } from './lab/agent-lab.ts'
import { clientBin, clientRow, labTitle, skipWithoutAgents } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

skipWithoutAgents()

/**
 * The real Codex CLI (@openai/codex, a native binary) in `codex exec`, configured the way its users add
 * a custom provider: `config.toml` in CODEX_HOME with `[model_providers.proxy]`. Codex speaks only the
 * responses wire API (`wire_api = "chat"` is refused at start-up); a custom provider uses HTTP
 * `POST /v1/responses` unless `supports_websockets = true`, which switches it to the responses WebSocket
 * (`GET /v1/responses` + upgrade) with a `generate: false` warm-up and `previous_response_id` chaining.
 */

const lab = useAgentLab()
const row = clientRow('codex')

/** WebSocket upgrades by client key, with the status line the proxy wrote (the app recorder never sees them). */
const upgrades: Array<{ key?: string; path: string; status: number }> = []
beforeAll(() => {
  const server = (lab.setup.proxy.server.server as { node?: { server?: Server } }).node!.server!
  server.prependListener('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const write = socket.write
    socket.write = function (this: Duplex, chunk: unknown, ...rest: unknown[]) {
      socket.write = write
      const key = readClientKey(new Headers(req.headers as Record<string, string>), new URL(req.url!, 'http://x'))
      upgrades.push({ key, path: req.url!, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(String(chunk))?.[1] ?? 0) })
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest)
    } as Duplex['write']
  })
})

type Transport = 'http' | 'websocket'

/** The config.toml a user writes for the proxy, plus the switches that keep Codex from calling home. */
function codex(place: RunPlace, args: string[], transport: Transport = 'http'): AgentSpec {
  const config = `model = "${place.model}"
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
base_url = "${place.url}/v1"
env_key = "PROXY_API_KEY"
wire_api = "responses"
supports_websockets = ${transport === 'websocket'}
`
  return {
    bin: clientBin('codex'),
    args: ['exec', '--strict-config', '--skip-git-repo-check', '--ephemeral', '--color', 'never', ...args],
    env: { CODEX_HOME: `${place.home}/.codex`, PROXY_API_KEY: place.key, RUST_LOG: 'warn' },
    home: { '.codex/config.toml': config },
    work: { 'notes.txt': `fog ${place.nonce}\n` },
  }
}

const events = (run: AgentRun) => run.stdout.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line))
const agentMessages = (run: AgentRun) => events(run).filter(event => event.type === 'item.completed' && event.item.type === 'agent_message').map(event => event.item.text as string)

function expectClean(run: AgentRun, json = true) {
  expect(run.code, run.stderr.slice(-3000)).toBe(0)
  expect(run.outside).toEqual([])
  expect(run.calls.filter(call => call.status >= 400)).toEqual([])
  if (json) {
    expect(events(run).map(event => event.type)).toContain('turn.completed')
    expect(events(run).filter(event => event.type === 'turn.failed' || event.type === 'error')).toEqual([])
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

/** `exec_command` really runs `cat notes.txt`; its output goes back, and the upstream sees call and result paired. */
async function toolRoundTrip(family: Family, transport: Transport): Promise<AgentRun> {
  const run = await lab.run(family, place => codex(place, ['--json', `(${place.nonce}) please call exec_command with {"cmd":"cat notes.txt"}`], transport))
  expectClean(run)
  expect(events(run).find(event => event.type === 'item.completed' && event.item.type === 'command_execution')?.item).toMatchObject({ exit_code: 0, aggregated_output: `fog ${run.place.nonce}\n` })
  expect(agentMessages(run).at(-1)).toMatch(new RegExp(`^The tool said: [\\s\\S]*fog ${run.place.nonce}`))
  const upstream = run.upstream(family)
  expect(upstream).toHaveLength(2)
  const turn = toolTurn[family](upstream[1])
  expect(turn.calls).toHaveLength(1)
  expect(turn.results).toEqual(turn.calls)
  return run
}

describe.concurrent.each(families)(labTitle(row, '%s'), (family) => {
  it('plain: `codex exec` prints the answer', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => codex(place, [`Say hi to ${place.nonce}`]))
    expectClean(run, false)
    // Codex sends its environment context as a user message before the prompt; the mock echoes the last turn.
    expect(run.stdout.trim().endsWith(`Say hi to ${run.place.nonce}`)).toBe(true)
    expect(run.stdout).toContain(greeting('').trim())
    expect(run.calls.map(call => `${call.method} ${call.path}`)).toEqual(['POST /v1/responses'])
    expect(run.upstream(family)).toHaveLength(1)
    if (family === 'gamma') saveFixture('codex', 'plain', run.calls[0], run.place)
  })

  it('stream: `codex exec --json` events', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => codex(place, ['--json', `Stream to ${place.nonce}`]))
    expectClean(run)
    expect(agentMessages(run).at(-1)).toMatch(new RegExp(`^${greeting('').trim()}[\\s\\S]*Stream to ${run.place.nonce}$`))
    expect(JSON.stringify(run.upstream(family)[0])).toContain('You are a coding agent running in the Codex CLI')
    // Its session and feature headers travel to a responses upstream only.
    const sent = lab.setup.upstreams[family].requests.find(request => request.body.includes(run.place.nonce))!
    if (family === 'gamma') expect(sent.headers['session-id']).toBe(run.calls[0]!.headers['session-id'])
    else expect(sent.headers['session-id']).toBeUndefined()
  })

  it('tool: exec_command runs and its output goes back (HTTP)', { timeout: 180_000 }, async () => {
    const run = await toolRoundTrip(family, 'http')
    expect(run.calls.map(call => `${call.method} ${call.path} ${call.status}`)).toEqual(['POST /v1/responses 200', 'POST /v1/responses 200'])
    if (family === 'gamma') saveFixture('codex', 'tool-result', run.calls[1], run.place)
  })

  it('tool over the responses WebSocket: one upgrade, previous_response_id expanded for every family', { timeout: 180_000 }, async () => {
    const run = await toolRoundTrip(family, 'websocket')
    // Both turns over one socket: no HTTP request besides the upgrade.
    expect(run.calls).toEqual([])
    expect(upgrades.filter(upgrade => upgrade.key === run.place.key)).toEqual([{ key: run.place.key, path: '/v1/responses', status: 101 }])
  })
})
