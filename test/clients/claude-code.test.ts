import { describe, expect, it } from 'vitest'
import { families, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type AgentRun, type AgentSpec, type RunPlace } from './lab/agent-lab.ts'
import { clientBin, clientRow, labTitle, skipWithoutAgents } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

skipWithoutAgents()

/**
 * The real Claude Code CLI (@anthropic-ai/claude-code 2.x: a native binary the npm package links in at
 * install, so it runs on any Node) in headless mode, pointed at the proxy the way its users do
 * (ANTHROPIC_BASE_URL plus a key), against every upstream family.
 */

const lab = useAgentLab()
const row = clientRow('claude-code')

interface Event {
  type: string; subtype?: string; model?: string; result?: string; is_error?: boolean; modelUsage?: Record<string, unknown>
  event?: { type?: string; delta?: { type?: string; text?: string } }; message?: { content: Array<Record<string, unknown>> }
  context_usage?: { model: string; total_tokens: number; categories: Array<{ name: string; tokens: number }> }
}

/**
 * What a user sets: base URL, key, and one proxy model for everything (ANTHROPIC_MODEL, and the small
 * model its helper calls use). `auth: 'api-key'` sends the key as x-api-key, otherwise as a bearer token.
 */
function claude(place: RunPlace, args: string[], { auth = 'token', env = {} }: { auth?: 'api-key' | 'token'; env?: Record<string, string> } = {}): AgentSpec {
  return {
    bin: clientBin('claude'),
    args: ['--model', place.model, ...args],
    env: {
      ANTHROPIC_BASE_URL: place.url, ...(auth === 'api-key' ? { ANTHROPIC_API_KEY: place.key } : { ANTHROPIC_AUTH_TOKEN: place.key }),
      ANTHROPIC_MODEL: place.model, ANTHROPIC_SMALL_FAST_MODEL: place.model, ANTHROPIC_DEFAULT_HAIKU_MODEL: place.model,
      DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      // One attempt per request: a 4xx is reported at once instead of after ten backed-off retries.
      CLAUDE_CODE_MAX_RETRIES: '0',
      ...env,
    },
    work: { 'notes.txt': `fog ${place.nonce}\n` },
  }
}

const events = (run: AgentRun) => run.stdout.split('\n').filter(line => line.startsWith('{')).flatMap((line) => {
  const parsed = JSON.parse(line) as Event | Event[]
  return Array.isArray(parsed) ? parsed : [parsed]
})
const result = (run: AgentRun) => events(run).find(event => event.type === 'result')!
const messageCalls = (run: AgentRun) => run.calls.filter(call => call.path.startsWith('/v1/messages?'))

function expectClean(run: AgentRun) {
  expect(run.code, run.stderr.slice(-2000) + run.stdout.slice(-2000)).toBe(0)
  expect(result(run)).toMatchObject({ subtype: 'success', is_error: false })
  expect(run.outside).toEqual([])
  expect(run.calls.filter(call => call.status >= 400)).toEqual([])
}

/** The request as the upstream got it, for the family's wire format: the environment system message made it across. */
function expectEnvironmentCarried(run: AgentRun, family: Family) {
  const [first] = run.upstream(family)
  expect(first).toBeDefined()
  // Claude Code sends its environment (working directory...) as a system message after the prompt.
  expect(JSON.stringify(first)).toContain(run.place.cwd)
  if (family === 'beta') expect(first!.messages.some((message: { role: string }) => message.role === 'system')).toBe(true)
}

describe.concurrent.each(families)(labTitle(row, '%s'), (family) => {
  it('plain: -p as JSON (x-api-key)', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => claude(place, ['-p', `say hello to ${place.nonce}`, '--output-format', 'json'], { auth: 'api-key' }))
    expectClean(run)
    // The mock echoes the user's last turn, which Claude Code opens with a <system-reminder>.
    expect(result(run).result).toContain(greeting('').trim())
    expect(result(run).result?.endsWith(`say hello to ${run.place.nonce}`)).toBe(true)
    expect(Object.keys(result(run).modelUsage ?? {})).toEqual([run.place.model])
    expect(messageCalls(run).length).toBeGreaterThan(0)
    expect(messageCalls(run).every(call => call.headers['x-api-key'] === run.place.key)).toBe(true)
    expectEnvironmentCarried(run, family)
    const sent = lab.setup.upstreams[family].requests.find(request => request.body.includes(run.place.nonce))!
    // Its betas travel to a beta upstream only; what another format cannot take is named in the answer.
    if (family === 'beta') expect(sent.headers['anthropic-beta']).toContain('context-management-2025-06-27')
    else {
      expect(sent.headers['anthropic-beta']).toBeUndefined()
      expect(messageCalls(run)[0]!.dropped?.split(',')).toContain('context_management')
    }
    if (family === 'beta') saveFixture('claude-code', 'plain', messageCalls(run)[0], run.place)
  })

  it('stream: -p as stream-json with partial messages (bearer token)', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => claude(place, ['-p', `stream to ${place.nonce}`, '--output-format', 'stream-json', '--verbose', '--include-partial-messages']))
    expectClean(run)
    expect(events(run)[0]).toMatchObject({ type: 'system', subtype: 'init', model: run.place.model })
    const deltas = events(run).filter(event => event.type === 'stream_event' && event.event?.delta?.type === 'text_delta').map(event => event.event!.delta!.text)
    expect(deltas.length).toBeGreaterThan(3)
    expect(deltas.join('')).toBe(result(run).result)
    expect(result(run).result?.endsWith(`stream to ${run.place.nonce}`)).toBe(true)
    expect(messageCalls(run).every(call => call.headers.authorization === `Bearer ${run.place.key}`)).toBe(true)
    if (family === 'beta') saveFixture('claude-code', 'stream', messageCalls(run)[0], run.place)
  })

  it('tool: Bash runs `cat notes.txt` and its output goes back as a tool_result', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => claude(place, ['-p', `(${place.nonce}) please call Bash with {"command":"cat notes.txt","description":"Show notes"}`, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash']))
    expectClean(run)
    const assistant = events(run).filter(event => event.type === 'assistant').flatMap(event => event.message!.content)
    const use = assistant.find(block => block.type === 'tool_use')
    expect(use).toMatchObject({ name: 'Bash', input: { command: 'cat notes.txt' } })
    const toolResult = events(run).filter(event => event.type === 'user').flatMap(event => event.message!.content).find(block => block.type === 'tool_result')
    expect(toolResult).toMatchObject({ tool_use_id: use!.id })
    expect(result(run).result).toBe(`The tool said: fog ${run.place.nonce}`)
    // The main turns (helper calls on the small model may come between): the last one carries the result.
    const upstream = run.upstream(family)
    expect(upstream.length).toBeGreaterThanOrEqual(2)
    expect(JSON.stringify(upstream.at(-1))).toContain(`fog ${run.place.nonce}`)
    if (family === 'beta') saveFixture('claude-code', 'tool-result', messageCalls(run).find(call => call.body.includes('"tool_result"')), run.place)
  })
})

describe(labTitle(row, 'alpha'), () => {
  it('/context counts tokens through /v1/messages/count_tokens, locally', { timeout: 180_000 }, async () => {
    const run = await lab.run('alpha', place => claude(place, ['-p', '/context', '--output-format', 'stream-json', '--verbose']))
    expectClean(run)
    // The counts come back on the local command's answer, per category.
    const usage = events(run).find(event => event.context_usage)!.context_usage!
    expect(usage).toMatchObject({ model: run.place.model, total_tokens: expect.any(Number) })
    expect(usage.categories.find(category => category.name === 'System prompt')!.tokens).toBeGreaterThan(100)
    expect(usage.categories.find(category => category.name === 'System tools')!.tokens).toBeGreaterThan(100)
    expect(run.calls.length).toBeGreaterThan(1)
    expect(run.calls.map(call => `${call.method} ${call.path} ${call.status}`)).toEqual(run.calls.map(() => 'POST /v1/messages/count_tokens?beta=true 200'))
    expect(lab.setup.upstreams.alpha.requests.filter(request => request.url.includes(':countTokens'))).toEqual([])
  })
})

describe(labTitle(row, 'gamma'), () => {
  it('a wrong key is a messages-format 401 that Claude Code reports, exit code 1', { timeout: 180_000 }, async () => {
    const run = await lab.run('gamma', place => claude({ ...place, key: 'sk-wrong' }, ['-p', 'hi', '--output-format', 'json']))
    expect(run.code).toBe(1)
    expect(result(run)).toMatchObject({ is_error: true, result: expect.stringContaining('401') })
    expect(result(run).result).not.toContain('sk-wrong')
    expect(run.outside).toEqual([])
  })

  it('a claude-* name the proxy does not serve is a messages-format 404, exit code 1', { timeout: 180_000 }, async () => {
    // (The catalog's own names, claude-haiku-4-5 and the like, are served by a beta key entry.)
    const run = await lab.run('gamma', place => claude({ ...place, model: 'claude-unserved-9' }, ['-p', 'hi', '--output-format', 'json']))
    expect(run.code).toBe(1)
    expect(run.calls.length).toBeGreaterThan(0)
    expect(run.calls.map(call => call.status)).toEqual(run.calls.map(() => 404))
    expect(JSON.parse(run.calls[0]!.body).model).toBe('claude-unserved-9')
    expect(result(run).result).toContain('claude-unserved-9')
    expect(run.outside).toEqual([])
  })
})
