import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, families, familyModels, greeting, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * The real Gemini CLI (@google/gemini-cli 0.61.0) in headless mode, pointed at the proxy the way its
 * users do (GOOGLE_GEMINI_BASE_URL plus an API key), against every upstream family.
 */

const gemini = fileURLToPath(new URL('../../node_modules/.bin/gemini', import.meta.url))

/** Any call that tries to leave the machine fails at once instead (tests never reach the internet). */
const offline = { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', ALL_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1,localhost', NO_COLOR: '1' }

/**
 * The CLI's helper calls (web search and fetch, routing classifier, summaries, edit fixes, loop and
 * next-speaker checks, chat compression) name Google models through these config aliases. Overriding
 * their model keeps every call on a model the proxy serves, with the rest of each alias (tools,
 * thinking budget) unchanged.
 */
const helperAliases = [
  'gemini-3-flash-base', 'gemini-2.5-flash-base', 'gemini-3.5-flash-base', 'classifier', 'prompt-completion', 'fast-ack-helper',
  'edit-corrector', 'summarizer-default', 'summarizer-shell', 'loop-detection-double-check', 'chat-compression-default',
  'agent-history-provider-summarizer',
]

/** ~/.gemini/settings.json as a user writes it once: API-key auth, one model for everything, nothing sent home. */
function geminiSettings(model: string) {
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    telemetry: { enabled: false },
    model: { name: model },
    modelConfigs: { customOverrides: helperAliases.map(alias => ({ match: { model: alias }, modelConfig: { model } })) },
  }
}

interface Call { method: string; path: string; status: number }
interface JsonOutput { response?: string; stats?: { models?: Record<string, unknown>; tools?: { byName?: Record<string, { count: number }> } } }

let setup: FamilyProxy
/** Every request the CLI made, with the status the proxy answered. */
const calls: Call[] = []
const scratch = mkdtempSync(join(tmpdir(), 'gemini-cli-'))

beforeAll(async () => {
  setup = await startFamilyProxy()
  setup.proxy.proxy.kernel.app.use(async (event, next) => {
    const response = await next()
    calls.push({ method: event.req.method, path: event.url.pathname + event.url.search, status: response instanceof Response ? response.status : 200 })
    return response
  })
})
afterAll(async () => {
  await setup?.close()
  rmSync(scratch, { recursive: true, force: true })
})

/** Runs `gemini <args>` in a fresh HOME and working directory; returns its output and the proxy calls it made. */
async function runGemini(model: string, args: string[], prepare?: (cwd: string) => void) {
  const home = mkdtempSync(join(scratch, 'home-'))
  const cwd = mkdtempSync(join(scratch, 'work-'))
  mkdirSync(join(home, '.gemini'))
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(geminiSettings(model)))
  prepare?.(cwd)
  const env = {
    PATH: process.env.PATH!, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), ...offline,
    GOOGLE_GEMINI_BASE_URL: setup.proxy.url, GEMINI_API_KEY: clientKey, GEMINI_CLI_TRUST_WORKSPACE: 'true',
  }
  const before = calls.length
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(gemini, args, { cwd, env, timeout: 30_000, killSignal: 'SIGKILL', maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    })
  })
  return { ...result, calls: calls.slice(before) }
}

const stream = (model: string) => `POST /v1beta/models/${model}:streamGenerateContent?alt=sse`
const paths = (made: Call[]) => made.map(call => `${call.method} ${call.path}`)

describe.each(families)('Gemini CLI 0.61.0 -> %s upstream', (family) => {
  const model = familyModels[family]

  it('answers a headless prompt as JSON', { timeout: 40_000 }, async () => {
    const prompt = `say hello to the ${model} test`
    const run = await runGemini(model, ['-p', prompt, '-m', model, '--output-format', 'json'])
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
    const output = JSON.parse(run.stdout) as JsonOutput
    // The mock echoes the last user message, which the CLI opens with its own session context.
    expect(output.response).toContain(greeting('').trim())
    expect(output.response).toContain(prompt)
    // The CLI reports usage under the model name the response carried: the client's name, not the upstream's.
    expect(Object.keys(output.stats?.models ?? {})).toEqual([model])
    expect(paths(run.calls)).toEqual([stream(model)])
    expect(run.calls.filter(call => call.status >= 400)).toEqual([])
  })

  it('answers a headless prompt as plain text', { timeout: 40_000 }, async () => {
    const run = await runGemini(model, ['-p', 'plain text please', '-m', model])
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
    expect(run.stdout).toContain(greeting('').trim())
    expect(run.stdout.trim().endsWith('plain text please')).toBe(true)
    expect(run.calls.filter(call => call.status >= 400)).toEqual([])
  })

  it('runs a tool whose helper call goes through the proxy too (google_web_search)', { timeout: 40_000 }, async () => {
    // The mock calls the tool the prompt names, with `{ query }`; the CLI's search tool then asks the
    // `web-search` helper alias (pointed at the same proxy model) and sends the result back.
    const run = await runGemini(model, ['-p', 'please use google_web_search for fog', '-m', model, '--output-format', 'json'])
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
    const output = JSON.parse(run.stdout) as JsonOutput
    expect(output.stats?.tools?.byName?.google_web_search?.count).toBe(1)
    // Both the streamed main turn and the helper's plain generateContent report the client's model name.
    expect(Object.keys(output.stats?.models ?? {})).toEqual([model])
    expect(output.response).toMatch(/^The tool said: Web search results for /)
    expect(output.response).toContain(greeting('').trim())
    expect(paths(run.calls)).toEqual([stream(model), `POST /v1beta/models/${model}:generateContent`, stream(model)])
    expect(run.calls.filter(call => call.status >= 400)).toEqual([])
  })

  it('sends a failed tool call back as a functionResponse and answers from it', { timeout: 40_000 }, async () => {
    // `{ query }` is not what read_file takes: the CLI reports the validation error to the model.
    const run = await runGemini(model, ['-p', 'please use read_file on notes.txt', '-m', model, '--output-format', 'json'],
      cwd => writeFileSync(join(cwd, 'notes.txt'), 'fog\n'))
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
    const output = JSON.parse(run.stdout) as JsonOutput
    expect(output.stats?.tools?.byName?.read_file?.count).toBe(1)
    expect(output.response).toMatch(/^The tool said: .*file_path/)
    expect(paths(run.calls)).toEqual([stream(model), stream(model)])
    expect(run.calls.filter(call => call.status >= 400)).toEqual([])
  })
})

describe('what the CLI reads back from an alpha upstream behind an alias', () => {
  // The CLI files usage under the response's `modelVersion`; it must be the name the client asked for.
  it.each(['generateContent', 'streamGenerateContent?alt=sse'])('%s reports the client model name', async (method) => {
    const response = await fetch(`${setup.proxy.url}/v1beta/models/${familyModels.alpha}:${method}`, {
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
