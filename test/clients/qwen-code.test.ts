import { describe, expect, it } from 'vitest'
import { families, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type AgentRun, type AgentSpec, type RunPlace } from './lab/agent-lab.ts'
import { clientBin, clientRow, labTitle, skipWithoutAgents } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

skipWithoutAgents()

/**
 * The real Qwen Code CLI (@qwen-code/qwen-code) in headless mode, pointed at the proxy the way its users
 * do: `OPENAI_BASE_URL` + `OPENAI_API_KEY` + `OPENAI_MODEL` with the `openai` auth type (chat
 * completions), against every upstream family. Its other wire formats (`--auth-type anthropic`,
 * `gemini`, `openai-responses`) run once each.
 */

const lab = useAgentLab()
const row = clientRow('qwen-code')

type AuthType = 'openai' | 'openai-responses' | 'anthropic' | 'gemini'

/** Where each auth type reads the base URL, key and model from. */
function authEnv(auth: AuthType, place: RunPlace): Record<string, string> {
  switch (auth) {
    case 'openai':
    case 'openai-responses': return { OPENAI_BASE_URL: `${place.url}/v1`, OPENAI_API_KEY: place.key, OPENAI_MODEL: place.model }
    case 'anthropic': return { ANTHROPIC_BASE_URL: place.url, ANTHROPIC_API_KEY: place.key, ANTHROPIC_MODEL: place.model }
    case 'gemini': return { GOOGLE_GEMINI_BASE_URL: place.url, GEMINI_API_KEY: place.key, GEMINI_MODEL: place.model }
  }
}

/** ~/.qwen/settings.json as a user writes it: the auth type, nothing sent home. */
function qwen(place: RunPlace, args: string[], auth: AuthType = 'openai'): AgentSpec {
  const settings = {
    security: { auth: { selectedType: auth } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  }
  return {
    bin: clientBin('qwen'),
    args: ['--auth-type', auth, '--model', place.model, ...args],
    env: authEnv(auth, place),
    home: { '.qwen/settings.json': JSON.stringify(settings) },
    work: { 'notes.txt': `fog ${place.nonce}\n` },
  }
}

interface Event { type: string; subtype?: string; result?: string; is_error?: boolean; event?: { type?: string; delta?: { type?: string; text?: string } }; message?: { content: Array<Record<string, unknown>> } }
const events = (run: AgentRun) => run.stdout.split('\n').filter(line => line.startsWith('{') || line.startsWith('[')).flatMap((line) => {
  const parsed = JSON.parse(line) as Event | Event[]
  return Array.isArray(parsed) ? parsed : [parsed]
})
const result = (run: AgentRun) => events(run).find(event => event.type === 'result')!

function expectClean(run: AgentRun) {
  expect(run.code, run.stderr.slice(-2000) + run.stdout.slice(-1000)).toBe(0)
  expect(run.outside).toEqual([])
  expect(run.calls.length).toBeGreaterThan(0)
  expect(run.calls.filter(call => call.status >= 400)).toEqual([])
}

/** read_file reads notes.txt; its output goes back and the model quotes it. */
async function toolRoundTrip(family: Family, auth: AuthType, output = ['--output-format', 'json']): Promise<AgentRun> {
  const run = await lab.run(family, place => qwen(place, ['-p', `(${place.nonce}) please call read_file with {"file_path":"${place.cwd}/notes.txt"}`, ...output], auth))
  expectClean(run)
  const uses = events(run).filter(event => event.type === 'assistant').flatMap(event => event.message!.content).filter(block => block.type === 'tool_use')
  expect(uses).toMatchObject([{ name: 'read_file', input: { file_path: `${run.place.cwd}/notes.txt` } }])
  expect(result(run)).toMatchObject({ subtype: 'success', is_error: false })
  expect(result(run).result).toMatch(new RegExp(`^The tool said: [\\s\\S]*fog ${run.place.nonce}`))
  expect(run.upstream(family)).toHaveLength(2)
  return run
}

describe.concurrent.each(families)(labTitle(row, '%s'), (family: Family) => {
  it('plain: -p answers as text', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => qwen(place, ['-p', `say hello to ${place.nonce}`]))
    expectClean(run)
    expect(run.stdout).toContain(greeting('').trim())
    expect(run.stdout.trim().endsWith(`say hello to ${run.place.nonce}`)).toBe(true)
    // The answer, then (sometimes) its own follow-up check on the same model.
    expect(new Set(run.calls.map(call => `${call.method} ${call.path}`))).toEqual(new Set(['POST /v1/chat/completions']))
    if (family === 'compat') saveFixture('qwen-code', 'plain', run.calls[0], run.place)
  })

  // One run for two cases (each agent start costs seconds of CPU): the answer streams, and the tool runs first.
  it('stream + tool: read_file runs, its result goes back, the answer streams as stream-json', { timeout: 180_000 }, async () => {
    const run = await toolRoundTrip(family, 'openai', ['--output-format', 'stream-json', '--include-partial-messages'])
    const deltas = events(run).filter(event => event.type === 'stream_event' && event.event?.delta?.type === 'text_delta').map(event => event.event!.delta!.text)
    expect(deltas.length).toBeGreaterThan(3)
    expect(deltas.join('')).toContain(`fog ${run.place.nonce}`)
    if (family === 'compat') saveFixture('qwen-code', 'tool-result', run.calls.find(call => call.body.includes('"role":"tool"')), run.place)
  })
})

// Its other wire formats: each once, each against a family that has to translate.
describe.concurrent.each<[AuthType, Family, string]>([
  ['anthropic', 'alpha', '/v1/messages'],
  ['gemini', 'gamma', '/v1beta/models/via-gamma:streamGenerateContent?alt=sse'],
  ['openai-responses', 'beta', '/v1/responses'],
])(labTitle(`${row} --auth-type %s`, '%s'), (auth, family, path) => {
  it('tool round trip', { timeout: 180_000 }, async () => {
    const run = await toolRoundTrip(family, auth)
    expect(run.calls.map(call => `${call.method} ${call.path}`)).toEqual([`POST ${path}`, `POST ${path}`])
  })
})
