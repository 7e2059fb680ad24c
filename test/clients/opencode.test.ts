import { describe, expect, it } from 'vitest'
import { families, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type AgentRun, type AgentSpec, type RunPlace } from './lab/agent-lab.ts'
import { clientBin, clientRow, labTitle, opencodePluginInstalled, skipWithoutAgents } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

skipWithoutAgents()

/**
 * The real opencode CLI (opencode-ai, a native binary) in `opencode run`, with the proxy added the way
 * its users add one: a custom provider in ~/.config/opencode/opencode.json on its bundled
 * `@ai-sdk/openai-compatible`, speaking chat completions to every upstream family.
 */

const lab = useAgentLab()
const row = clientRow('opencode')

function opencode(place: RunPlace, args: string[], prompt: string): AgentSpec {
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: { proxy: { npm: '@ai-sdk/openai-compatible', name: 'model proxy', options: { baseURL: `${place.url}/v1`, apiKey: place.key }, models: { [place.model]: { name: place.model } } } },
  }
  return {
    bin: clientBin('opencode'),
    // `run` quotes a message word that holds a space: the prompt goes as separate words, as a shell passes them.
    args: ['run', '--model', `proxy/${place.model}`, ...args, ...prompt.split(' ')],
    env: { OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1' },
    home: { '.config/opencode/opencode.json': JSON.stringify(config), ...opencodePluginInstalled() },
    work: { 'notes.txt': `fog ${place.nonce}\n` },
  }
}

interface Event { type: string; part: { type: string; text?: string; tool?: string; reason?: string; state?: { status: string; input?: Record<string, unknown>; output?: string } } }
const events = (run: AgentRun) => run.stdout.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line) as Event)
const texts = (run: AgentRun) => events(run).filter(event => event.type === 'text').map(event => event.part.text ?? '')
/** The main turns: opencode also asks the model for a session title (no tools). */
const mainCalls = (run: AgentRun) => run.calls.filter(call => call.body.includes('"tools"'))

function expectClean(run: AgentRun) {
  expect(run.code, run.stderr.slice(-2000) + run.stdout.slice(-1000)).toBe(0)
  expect(run.outside).toEqual([])
  expect(run.calls.length).toBeGreaterThan(0)
  expect(run.calls.map(call => `${call.method} ${call.path} ${call.status}`)).toEqual(run.calls.map(() => 'POST /v1/chat/completions 200'))
}

describe.concurrent.each(families)(labTitle(row, '%s'), (family: Family) => {
  it('plain: `opencode run` prints the answer', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => opencode(place, [], `say hello to ${place.nonce}`))
    expectClean(run)
    expect(run.stdout.trim()).toBe(greeting(`say hello to ${run.place.nonce}`))
    expect(mainCalls(run)).toHaveLength(1)
    if (family === 'compat') saveFixture('opencode', 'plain', mainCalls(run)[0], run.place)
  })

  // One run for two cases (each agent start costs seconds of CPU): the tool runs, then the answer streams.
  it('stream + tool: read runs, its output goes back, the answer streams as --format json events', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => opencode(place, ['--format', 'json'], `(${place.nonce}) please call read with {"filePath":"${place.cwd}/notes.txt"}`))
    expectClean(run)
    const read = events(run).find(event => event.type === 'tool_use')
    expect(read?.part).toMatchObject({ tool: 'read', state: { status: 'completed', input: { filePath: `${run.place.cwd}/notes.txt` } } })
    expect(read?.part.state?.output).toContain(`fog ${run.place.nonce}`)
    expect(texts(run).at(-1)).toMatch(new RegExp(`^The tool said: [\\s\\S]*fog ${run.place.nonce}`))
    expect(events(run).filter(event => event.type === 'step_finish').map(event => event.part.reason)).toEqual(['tool-calls', 'stop'])
    expect(mainCalls(run)).toHaveLength(2)
    expect(mainCalls(run).map(call => JSON.parse(call.body))).toMatchObject([{ stream: true, stream_options: { include_usage: true } }, { stream: true }])
    expect(JSON.stringify(run.upstream(family).at(-1))).toContain(`fog ${run.place.nonce}`)
    if (family === 'compat') saveFixture('opencode', 'tool-result', mainCalls(run)[1], run.place)
  })
})
