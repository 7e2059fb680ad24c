import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, greeting, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * The real coding-agent CLIs, installed from npm as devDependencies and pointed at the proxy the way
 * their users do (a base-URL variable or a custom provider), each against every upstream family.
 */

const bin = (name: string) => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url))

/** Any call that tries to leave the machine fails at once instead (tests never reach the internet). */
const offline = { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', ALL_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1,localhost', NO_COLOR: '1' }

interface CliRun { command: string; args: string[]; env: Record<string, string>; answer(stdout: string): string | undefined }

interface CodingCli {
  name: string
  /** How a user points it at the proxy, for one model, in a fresh HOME. */
  setup(proxyUrl: string, model: string, home: string, prompt: string): CliRun
}

const clis: CodingCli[] = [
  {
    name: 'Claude Code 1.0.128 (messages)',
    setup: (url, model, _home, prompt) => ({
      command: bin('claude'),
      args: ['-p', prompt, '--model', model, '--output-format', 'json'],
      env: {
        ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: clientKey, ANTHROPIC_SMALL_FAST_MODEL: model,
        DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      answer: stdout => (JSON.parse(stdout) as { result?: string }).result,
    }),
  },
  {
    name: 'Codex CLI 0.169.0 (responses, custom model provider)',
    setup: (url, model, home, prompt) => {
      writeFileSync(join(home, 'config.toml'), [
        `model = "${model}"`, 'model_provider = "proxy"', 'check_for_update_on_startup = false', '',
        '[analytics]', 'enabled = false', '',
        '[model_providers.proxy]', 'name = "proxy"', `base_url = "${url}/v1"`, 'env_key = "PROXY_API_KEY"', 'wire_api = "responses"', '',
      ].join('\n'))
      return {
        command: bin('codex'),
        args: ['exec', '--skip-git-repo-check', '--json', prompt],
        env: { CODEX_HOME: home, PROXY_API_KEY: clientKey },
        answer: (stdout) => {
          const messages = stdout.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line) as { type: string; item?: { type: string; text?: string } })
          return messages.filter(event => event.type === 'item.completed' && event.item?.type === 'agent_message').at(-1)?.item?.text
        },
      }
    },
  },
  {
    name: 'Gemini CLI 0.61.0 (generateContent)',
    setup: (url, model, home, prompt) => {
      mkdirSync(join(home, '.gemini'), { recursive: true })
      writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        telemetry: { enabled: false },
      }))
      return {
        command: bin('gemini'),
        args: ['-p', prompt, '-m', model],
        env: { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: clientKey, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
        answer: stdout => stdout,
      }
    },
  },
]

let setup: FamilyProxy
/** Every request the CLIs made, with the status the proxy answered. */
const seen: Array<{ method: string; path: string; status: number }> = []
const scratch = mkdtempSync(join(tmpdir(), 'coding-clis-'))

beforeAll(async () => {
  setup = await startFamilyProxy()
  setup.proxy.proxy.kernel.app.use(async (event, next) => {
    const response = await next()
    seen.push({ method: event.req.method, path: event.url.pathname, status: response instanceof Response ? response.status : 200 })
    return response
  })
})
afterAll(async () => {
  await setup?.close()
  rmSync(scratch, { recursive: true, force: true })
})

/** Runs the CLI with stdin closed (Codex and Claude Code otherwise wait for piped input), killed after 60 s. */
function run(cli: CliRun, cwd: string, home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cli.command, cli.args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH!, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...offline, ...cli.env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk })
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code: code ?? 1, stdout, stderr })
    })
  })
}

const cases = clis.flatMap(cli => Object.entries(familyModels).map(([family, model]) => ({ cli, family, model })))

describe('coding-agent CLIs through the proxy', () => {
  it.each(cases)('$cli.name -> $family upstream', { timeout: 90_000 }, async ({ cli, model }) => {
    const home = mkdtempSync(join(scratch, 'home-'))
    const cwd = mkdtempSync(join(scratch, 'work-'))
    const prompt = `say hello to the ${model} test`
    const before = seen.length
    const invocation = cli.setup(setup.proxy.url, model, home, prompt)
    const result = await run(invocation, cwd, home)
    expect(result.code, result.stderr.slice(-2000)).toBe(0)
    const answer = invocation.answer(result.stdout)
    // The mock echoes the last user message; the CLIs wrap the prompt in their own context first.
    expect(answer).toContain(greeting('').trim())
    expect(answer).toContain(prompt)
    const calls = seen.slice(before)
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.filter(call => call.status >= 400), JSON.stringify(calls)).toEqual([])
  })
})
