import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, families, familyModels, greeting, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { sseEvent, streamOf } from '../../playground/mock-upstream/wire.ts'

/**
 * The real Claude Code CLI (@anthropic-ai/claude-code 1.0.128, the newest that runs on Node 20) in
 * headless mode, pointed at the proxy the way its users do (ANTHROPIC_BASE_URL plus a key), against
 * every upstream family.
 */

const claude = fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url))

interface Call { method: string; path: string; status: number; model?: string; auth: 'x-api-key' | 'bearer' | 'none' }
/** How the key travels: ANTHROPIC_API_KEY (x-api-key) or ANTHROPIC_AUTH_TOKEN (Authorization: Bearer). */
interface Auth { via: 'api-key' | 'auth-token'; key: string }
const token: Auth = { via: 'auth-token', key: clientKey }
interface Event { type: string; subtype?: string; model?: string; result?: string; is_error?: boolean; modelUsage?: Record<string, unknown>; message?: { content: string | Array<Record<string, unknown>> } }

let setup: FamilyProxy
/** Every request the CLI made to the proxy, with the status it got. */
const calls: Call[] = []
/** Every request that tried to leave the machine through the (refusing) outbound proxy. */
const outside: string[] = []
let trap: Server
let trapUrl: string
const scratch = mkdtempSync(join(tmpdir(), 'claude-code-'))

beforeAll(async () => {
  setup = await startFamilyProxy()
  setup.proxy.proxy.kernel.app.use(async (event, next) => {
    const headers = event.req.headers
    const body = event.req.method === 'POST' ? await event.req.clone().json().catch(() => ({})) as { model?: string } : {}
    const response = await next()
    const auth = headers.get('x-api-key') ? 'x-api-key' : headers.get('authorization')?.startsWith('Bearer ') ? 'bearer' : 'none'
    calls.push({ method: event.req.method, path: event.url.pathname + event.url.search, status: response instanceof Response ? response.status : 200, model: body.model, auth })
    return response
  })
  // HTTPS_PROXY and friends point here: a stray call (telemetry, update check) is recorded and refused.
  trap = createServer((req, res) => { outside.push(`${req.method} ${req.url}`); res.writeHead(403).end() })
  trap.on('connect', (req, socket: Socket) => { outside.push(`CONNECT ${req.url}`); socket.end('HTTP/1.1 403 Forbidden\r\n\r\n') })
  await new Promise<void>(resolve => trap.listen(0, '127.0.0.1', resolve))
  trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`
})
afterAll(async () => {
  await setup?.close()
  await new Promise(resolve => trap?.close(resolve))
  rmSync(scratch, { recursive: true, force: true })
})

/**
 * The environment a user sets: base URL, key, and one proxy model for everything. `--model` alone is
 * not enough: the WebSearch tool asks ANTHROPIC_MODEL (default `claude-sonnet-4-*`) and the helper
 * calls ask ANTHROPIC_SMALL_FAST_MODEL (default `claude-3-5-haiku-*`), names the proxy does not serve.
 */
function claudeEnv(home: string, model: string, auth: Auth, extra: Record<string, string>): Record<string, string> {
  const offline = { HTTPS_PROXY: trapUrl, HTTP_PROXY: trapUrl, ALL_PROXY: trapUrl, https_proxy: trapUrl, http_proxy: trapUrl, all_proxy: trapUrl, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost' }
  const key: Record<string, string> = auth.via === 'auth-token' ? { ANTHROPIC_AUTH_TOKEN: auth.key } : { ANTHROPIC_API_KEY: auth.key }
  return {
    PATH: process.env.PATH!, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), XDG_DATA_HOME: join(home, '.local/share'),
    NO_COLOR: '1', ...offline, ...key,
    ANTHROPIC_BASE_URL: setup.proxy.url, ANTHROPIC_MODEL: model, ANTHROPIC_SMALL_FAST_MODEL: model,
    DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // One attempt per request: a 4xx is reported at once instead of after ten backed-off retries.
    CLAUDE_CODE_MAX_RETRIES: '0',
    ...extra,
  }
}

interface Run { code: number | null; stdout: string; stderr: string; events: Event[]; calls: Call[]; outside: string[] }

interface RunOptions { auth?: Auth; env?: Record<string, string>; files?: Record<string, string> }

/** `claude -p <prompt> --model <model> <args>` in a fresh HOME and working directory; the process group is killed after 30 s. */
function runClaude(model: string, prompt: string, args: string[], { auth = token, env = {}, files = {} }: RunOptions = {}): Promise<Run> {
  const home = mkdtempSync(join(scratch, 'home-'))
  const cwd = join(home, 'work')
  mkdirSync(cwd)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text)
  const before = { calls: calls.length, outside: outside.length }
  // stdin closed: with a pipe, `-p` waits for piped input first.
  const child = spawn(claude, ['-p', prompt, '--model', model, ...args], { cwd, env: claudeEnv(home, model, auth, env), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
  const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL') } catch {} }, 30_000)
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer)
      rmSync(home, { recursive: true, force: true })
      const events = stdout.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line) as Event)
      resolve({ code, stdout, stderr, events, calls: calls.slice(before.calls), outside: outside.slice(before.outside) })
    })
  })
}

const result = (run: Run) => run.events.find(event => event.type === 'result')!
const blocks = (run: Run, type: 'assistant' | 'user') => run.events.filter(event => event.type === type).flatMap(event => event.message!.content as Array<Record<string, unknown>>)
const messages = (model: string, count: number, auth: Call['auth'] = 'bearer') => Array.from({ length: count }, () => ({ method: 'POST', path: '/v1/messages?beta=true', status: 200, model, auth }))
/**
 * With ANTHROPIC_API_KEY, 1.0.128 checks `https://api.anthropic.com/api/claude_code/organizations/metrics_enabled`
 * (a fixed host, sending that key as x-api-key) when it exits, whatever the base URL and the DISABLE_*
 * switches say. With ANTHROPIC_AUTH_TOKEN it has no API key to send and skips the check.
 */
const metricsCheck = ['CONNECT api.anthropic.com:443']

function expectSuccess(run: Run, outsideCalls: string[] = []) {
  expect(run.code, run.stderr.slice(-2000) + run.stdout.slice(-2000)).toBe(0)
  expect(result(run)).toMatchObject({ subtype: 'success', is_error: false })
  expect(run.outside).toEqual(outsideCalls)
}

describe.each(families)('Claude Code 1.0.128 -> %s upstream', (family) => {
  const model = familyModels[family]

  it('answers -p as JSON (ANTHROPIC_API_KEY, x-api-key)', { timeout: 40_000 }, async () => {
    const prompt = `say hello to the ${model} test`
    const run = await runClaude(model, prompt, ['--output-format', 'json'], { auth: { via: 'api-key', key: clientKey } })
    expectSuccess(run, metricsCheck)
    // The mock echoes the last user message, which Claude Code opens with a <system-reminder>.
    expect(result(run).result).toContain(greeting('').trim())
    expect(result(run).result?.endsWith(prompt)).toBe(true)
    expect(Object.keys(result(run).modelUsage ?? {})).toEqual([model])
    // One streamed messages call: no count_tokens, no model list, no helper call on another model.
    expect(run.calls).toEqual(messages(model, 1, 'x-api-key'))
  })

  it('streams -p as stream-json (ANTHROPIC_AUTH_TOKEN, bearer) through a Bash tool round trip', { timeout: 40_000 }, async () => {
    // The mock calls the tool the prompt names with `{ query }`; Bash wants `command`, so Claude Code
    // returns the validation error as an is_error tool_result, and the mock quotes it back.
    const run = await runClaude(model, 'please run Bash for me', ['--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash'])
    expectSuccess(run)
    expect(run.events[0]).toMatchObject({ type: 'system', subtype: 'init', model })
    // Exactly the tool call and the answer: no empty thinking block for the upstream's bare signatures.
    const assistant = blocks(run, 'assistant')
    expect(assistant.map(block => block.type)).toEqual(['tool_use', 'text'])
    expect(assistant[0]).toMatchObject({ name: 'Bash', input: { query: expect.any(String) } })
    const toolResult = blocks(run, 'user').find(block => block.type === 'tool_result')
    expect(toolResult).toMatchObject({ tool_use_id: assistant[0]!.id, is_error: true, content: expect.stringContaining('InputValidationError') })
    expect(result(run).result).toMatch(/^The tool said: <tool_use_error>InputValidationError: Bash failed/)
    expect(result(run)).toMatchObject({ num_turns: 3 })
    expect(run.calls).toEqual(messages(model, 2))
  })

  it('runs WebSearch, whose own request (a server tool) goes through the proxy too', { timeout: 40_000 }, async () => {
    // WebSearch asks ANTHROPIC_MODEL with a `web_search_20250305` server tool; the other families have
    // no such tool, so it is dropped and the mock answers with text, which becomes the search result.
    const run = await runClaude(model, 'please use WebSearch for fog', ['--output-format', 'json', '--allowedTools', 'WebSearch'])
    expectSuccess(run)
    expect(result(run).result).toMatch(/^The tool said: Web search results for query: /)
    expect(result(run).result).toContain(greeting('Perform a web search for the query: '))
    expect(Object.keys(result(run).modelUsage ?? {})).toEqual([model])
    expect(run.calls).toEqual(messages(model, 3))
  })
})

/**
 * The playground mocks call a tool with `{ query }` only, which no Claude Code tool that runs a command
 * accepts. Here the beta mock is steered for one turn: asked to run `cat notes.txt` with Bash offered, it
 * streams that tool call; every other request (Claude Code's helper calls too) goes to the mock as is.
 */
async function catNotesTurn(request: Request): Promise<Response> {
  const body = await request.clone().json() as { model: string; tools?: Array<{ name: string }>; messages: Array<{ role: string; content: unknown }> }
  const last = body.messages.at(-1)!
  const asked = last.role === 'user' && Array.isArray(last.content) && last.content.some(block => block.type === 'text' && String(block.text).includes('run cat notes.txt'))
  if (!asked || !body.tools?.some(tool => tool.name === 'Bash')) return messagesMock(request)
  const input = JSON.stringify({ command: 'cat notes.txt', description: 'Show notes' })
  return streamOf([
    sseEvent('message_start', { type: 'message_start', message: { id: 'msg_cat', type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }),
    sseEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_cat', name: 'Bash', input: {} } }),
    sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input } }),
    sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sseEvent('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } }),
    sseEvent('message_stop', { type: 'message_stop' }),
  ])
}

describe('Claude Code 1.0.128 runs a real Bash command (beta upstream, steered)', () => {
  // 1.0.128 picks its small model as ANTHROPIC_SMALL_FAST_MODEL, else ANTHROPIC_DEFAULT_HAIKU_MODEL, else claude-3-5-haiku.
  it.each([
    ['ANTHROPIC_SMALL_FAST_MODEL', {}],
    ['ANTHROPIC_DEFAULT_HAIKU_MODEL', { ANTHROPIC_SMALL_FAST_MODEL: '', ANTHROPIC_DEFAULT_HAIKU_MODEL: familyModels.beta }],
  ])('its helper calls (command prefix, output check) use %s', { timeout: 40_000 }, async (_name, env) => {
    const model = familyModels.beta
    const original = setup.upstreams.beta.handler
    setup.upstreams.beta.handler = catNotesTurn
    const upstreamBefore = setup.upstreams.beta.requests.length
    try {
      const run = await runClaude(model, 'please run cat notes.txt', ['--output-format', 'json', '--allowedTools', 'Bash'], { env, files: { 'notes.txt': 'fog\n' } })
      expectSuccess(run)
      // The command ran in the working directory; its output went back as the tool result and was quoted.
      expect(result(run).result).toBe('The tool said: fog')
      const upstream = setup.upstreams.beta.requests.slice(upstreamBefore).map(request => JSON.parse(request.body) as { model: string; tools?: unknown[]; max_tokens: number; messages: Array<{ content: unknown }> })
      expect(upstream.map(body => body.model)).toEqual(['mock-claude', 'mock-claude', 'mock-claude', 'mock-claude'])
      expect(upstream[3]!.messages.at(-1)!.content).toMatchObject([{ type: 'tool_result', tool_use_id: 'toolu_cat', content: 'fog' }])
      // The main turn, two helper calls on the small model (no tools, 512 tokens), the main turn again.
      expect(upstream.map(body => [Boolean(body.tools), body.max_tokens])).toEqual([[true, 32000], [false, 512], [false, 512], [true, 32000]])
      expect(run.calls).toEqual(messages(model, 4))
    } finally {
      setup.upstreams.beta.handler = original
    }
  })
})

describe('Claude Code 1.0.128 helpers and errors', () => {
  it('/context counts tokens through /v1/messages/count_tokens', { timeout: 40_000 }, async () => {
    const model = familyModels.alpha
    const run = await runClaude(model, '/context', ['--output-format', 'stream-json', '--verbose'])
    expectSuccess(run)
    // The local command's output comes back as a user message carrying plain text.
    const shown = run.events.filter(event => event.type === 'user').map(event => event.message!.content).join('\n')
    expect(shown).toContain('Context Usage')
    expect(shown).toMatch(new RegExp(`${model} • \\d+(\\.\\d)?k/200k tokens`))
    expect(run.calls.length).toBeGreaterThan(1)
    expect(run.calls).toEqual(run.calls.map(() => ({ method: 'POST', path: '/v1/messages/count_tokens?beta=true', status: 200, model, auth: 'bearer' })))
  })

  it('a wrong key is a messages-format 401 that Claude Code reports, exit code 1', { timeout: 40_000 }, async () => {
    const run = await runClaude(familyModels.gamma, 'hi', ['--output-format', 'json'], { auth: { via: 'auth-token', key: 'sk-wrong' } })
    expect(run.code).toBe(1)
    expect(result(run)).toMatchObject({ is_error: true, result: expect.stringContaining('API Error: 401 {"type":"error","error":{"type":"authentication_error"') })
    expect(result(run).result).not.toContain('sk-wrong')
    expect(run.calls.length).toBeGreaterThan(0)
    expect(run.calls.map(call => call.status)).toEqual(run.calls.map(() => 401))
    expect(run.outside).toEqual([])
  })

  it('a claude-* name the proxy does not serve is a messages-format 404, exit code 1', { timeout: 40_000 }, async () => {
    // What a user gets without ANTHROPIC_MODEL / ANTHROPIC_SMALL_FAST_MODEL pointing at a proxy model.
    const run = await runClaude('claude-3-5-haiku-20241022', 'hi', ['--output-format', 'json'])
    expect(run.code).toBe(1)
    expect(result(run).result).toContain('API Error: 404 {"type":"error","error":{"type":"not_found_error","message":"model \\"claude-3-5-haiku-20241022\\" is not served')
    expect(run.calls.length).toBeGreaterThan(0)
    expect(run.calls.map(call => call.status)).toEqual(run.calls.map(() => 404))
    expect(run.outside).toEqual([])
  })
})
