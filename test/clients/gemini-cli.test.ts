import { describe, expect, it } from 'vitest'
import { clientKey, families, familyModels, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type AgentRun, type AgentSpec, type RunPlace } from './lab/agent-lab.ts'
import { clientBin, clientRow, labTitle, skipWithoutAgents } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

skipWithoutAgents()

/**
 * The real Gemini CLI (@google/gemini-cli) in headless mode, pointed at the proxy the way its users do
 * (GOOGLE_GEMINI_BASE_URL plus an API key), against every upstream family.
 */

const lab = useAgentLab()
const row = clientRow('gemini-cli')

/**
 * The CLI's helper calls (web search and fetch, routing classifier, summaries, edit fixes, loop and
 * next-speaker checks, chat compression) name Google models through these config aliases. Overriding
 * their model keeps every call on a model the proxy serves, with the rest of each alias unchanged.
 */
const helperAliases = [
  'gemini-3-flash-base', 'gemini-2.5-flash-base', 'gemini-3.5-flash-base', 'classifier', 'prompt-completion', 'fast-ack-helper',
  'edit-corrector', 'summarizer-default', 'summarizer-shell', 'loop-detection-double-check', 'chat-compression-default',
  'agent-history-provider-summarizer',
]

/** ~/.gemini/settings.json as a user writes it once: API-key auth, one model for everything, nothing sent home. */
function gemini(place: RunPlace, args: string[]): AgentSpec {
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    telemetry: { enabled: false },
    model: { name: place.model },
    modelConfigs: { customOverrides: helperAliases.map(alias => ({ match: { model: alias }, modelConfig: { model: place.model } })) },
  }
  return {
    bin: clientBin('gemini'),
    args: [...args, '-m', place.model],
    env: { GOOGLE_GEMINI_BASE_URL: place.url, GEMINI_API_KEY: place.key, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    home: { '.gemini/settings.json': JSON.stringify(settings) },
    work: { 'notes.txt': `fog ${place.nonce}\n` },
  }
}

interface JsonOutput { response?: string; stats?: { models?: Record<string, unknown>; tools?: { byName?: Record<string, { count: number }> } } }
const stream = (model: string) => `POST /v1beta/models/${model}:streamGenerateContent?alt=sse`
const paths = (run: AgentRun) => run.calls.map(call => `${call.method} ${call.path}`)
const lines = (run: AgentRun) => run.stdout.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line) as { type: string; role?: string; content?: string; delta?: boolean; status?: string; tool_name?: string })

function expectClean(run: AgentRun) {
  expect(run.code, run.stderr.slice(-2000)).toBe(0)
  expect(run.outside).toEqual([])
  expect(run.calls.filter(call => call.status >= 400)).toEqual([])
}

describe.concurrent.each(families)(labTitle(row, '%s'), (family: Family) => {
  it('plain: -p answers as text', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => gemini(place, ['-p', `plain text to ${place.nonce}`]))
    expectClean(run)
    expect(run.stdout).toContain(greeting('').trim())
    expect(run.stdout.trim().endsWith(`plain text to ${run.place.nonce}`)).toBe(true)
    expect(paths(run)).toEqual([stream(run.place.model)])
    if (family === 'alpha') saveFixture('gemini-cli', 'plain', run.calls[0], run.place)
  })

  // One run for two cases (each agent start costs seconds of CPU): the tool runs, then the answer streams.
  it('stream + tool: read_file reads notes.txt, the result goes back as a functionResponse, the answer streams', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => gemini(place, ['-p', `(${place.nonce}) please call read_file with {"file_path":"notes.txt"}`, '--output-format', 'stream-json']))
    expectClean(run)
    expect(lines(run).filter(line => line.type === 'tool_use').map(line => line.tool_name)).toEqual(['read_file'])
    expect(lines(run).filter(line => line.type === 'tool_result').map(line => line.status)).toEqual(['success'])
    const deltas = lines(run).filter(line => line.type === 'message' && line.role === 'assistant').map(line => line.content ?? '')
    expect(deltas.length).toBeGreaterThan(3)
    expect(deltas.join('')).toBe(`The tool said: fog ${run.place.nonce}\n`)
    expect(lines(run).at(-1)).toMatchObject({ type: 'result', status: 'success' })
    expect(paths(run)).toEqual([stream(run.place.model), stream(run.place.model)])
    expect(run.upstream(family)).toHaveLength(2)
    if (family === 'alpha') saveFixture('gemini-cli', 'tool-result', run.calls[1], run.place)
  })
})

describe(labTitle(row, 'beta'), () => {
  it('json output, google_web_search: the tool\'s own helper request goes through the proxy too, usage under the client\'s model name', { timeout: 180_000 }, async () => {
    // The mock calls the tool the prompt names, with `{ query }`; the CLI's search tool then asks the
    // `web-search` helper alias (pointed at the same proxy model) and sends the result back.
    const run = await lab.run('beta', place => gemini(place, ['-p', 'please use google_web_search for fog', '--output-format', 'json']))
    expectClean(run)
    const output = JSON.parse(run.stdout) as JsonOutput
    expect(output.stats?.tools?.byName?.google_web_search?.count).toBe(1)
    expect(Object.keys(output.stats?.models ?? {})).toEqual([run.place.model])
    expect(output.response).toMatch(/^The tool said: Web search results for /)
    expect(paths(run)).toEqual([stream(run.place.model), `POST /v1beta/models/${run.place.model}:generateContent`, stream(run.place.model)])
  })
})

describe('what the CLI reads back from an alpha upstream behind an alias', () => {
  // The CLI files usage under the response's `modelVersion`; it must be the name the client asked for.
  it.each(['generateContent', 'streamGenerateContent?alt=sse'])('%s reports the client model name', async (method) => {
    const response = await fetch(`${lab.setup.proxy.url}/v1beta/models/${familyModels.alpha}:${method}`, {
      method: 'POST',
      headers: { 'x-goog-api-key': clientKey, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toContain(`"modelVersion":"${familyModels.alpha}"`)
    expect(text).not.toContain('mock-gemini')
  })
})
