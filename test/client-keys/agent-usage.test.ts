import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientBin, skipWithoutAgents } from '../clients/lab/clients.ts'
import type { TestProxy } from '../helpers/proxy-server.ts'
import type { OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { startSettlementRig, stopSettlementRig } from './settlement-rig.ts'
import { costOf, tokensOf, managementReader, settlementPrice } from './settlement-prices.ts'
import { scriptedUsage, type UsageFamily, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { runAgentProcess, type AgentCommand } from './agent-process.ts'

skipWithoutAgents()

/**
 * The real coding agents, streaming as they always do, each with a named client key that has a tpm limit
 * and a daily budget, against a scripted upstream that reports known usage with cache reads: Claude Code
 * on its own family (messages -> beta), Codex on its own (responses -> gamma), Gemini CLI on its own
 * (generateContent -> alpha), and each of them on a translated one (chat completions -> compat). The key
 * is charged exactly the reported tokens of every upstream call the agent caused, at their price, never
 * its max_tokens; /usage, the recorder and the OTel spans show the same numbers to the token.
 */
const secret = 'agent-usage-admin'
const price = settlementPrice
type Agent = 'claude' | 'codex' | 'gemini'
const runs: Array<{ agent: Agent; family: UsageFamily; model: string; name: string }> = (['claude', 'codex', 'gemini'] as const).flatMap(agent => [
  { agent, family: ({ claude: 'beta', codex: 'gamma', gemini: 'alpha' } as const)[agent], model: `${agent}-own`, name: `${agent}-own` },
  { agent, family: 'compat' as const, model: `${agent}-compat`, name: `${agent}-compat` },
])
const modelsOf = (family: UsageFamily) => runs.filter(run => run.family === family).map(run => ({ name: `up-${family}`, alias: run.model }))

let upstream: UsageUpstream
let receiver: OtlpReceiver
let proxy: TestProxy
let closed = false

beforeAll(async () => {
  ({ upstream, receiver, proxy } = await startSettlementRig(secret, url => ({
    'compat-provider': [{ name: 'scripted', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: modelsOf('compat') }],
    'gamma-api-key': [{ 'api-key': 'up', 'base-url': `${url}/v1`, models: modelsOf('gamma') }],
    'alpha-api-key': [{ 'api-key': 'up', 'base-url': url, models: modelsOf('alpha') }],
    'beta-api-key': [{ 'api-key': 'up', 'base-url': url, models: modelsOf('beta') }],
    'model-prices': Object.fromEntries(runs.map(run => [run.model, price])),
    // A tpm a little above one call's reservation (prompt estimate + max_tokens 32000): charging it instead of the usage would refuse the next call.
    'client-keys': runs.map(({ name }) => ({ key: `ck-${name}`, name, tpm: 40_000, budget: { usd: 5, period: 'day' } })),
  })))
})
afterAll(() => stopSettlementRig({ upstream, receiver, proxy }, closed))

/** The agent as its users configure it: base URL, key, one model for everything, nothing sent home. */
function command(agent: Agent, model: string, key: string, home: string): AgentCommand {
  const prompt = 'say hello'
  if (agent === 'claude') {
    return {
      bin: clientBin('claude'), args: ['--model', model, '-p', prompt, '--output-format', 'json'],
      env: {
        ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_AUTH_TOKEN: key, ANTHROPIC_MODEL: model, ANTHROPIC_SMALL_FAST_MODEL: model, ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
        DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
        CLAUDE_CODE_MAX_OUTPUT_TOKENS: '32000',
      },
    }
  }
  if (agent === 'codex') {
    const config = `model = "${model}"\nmodel_provider = "proxy"\ncheck_for_update_on_startup = false\n\n[analytics]\nenabled = false\n\n[model_providers.proxy]\nname = "model proxy"\nbase_url = "${proxy.url}/v1"\nenv_key = "PROXY_API_KEY"\nwire_api = "responses"\n`
    return {
      bin: clientBin('codex'), args: ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', prompt],
      env: { CODEX_HOME: `${home}/.codex`, PROXY_API_KEY: key, RUST_LOG: 'warn' }, home: { '.codex/config.toml': config },
    }
  }
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true }, telemetry: { enabled: false }, model: { name: model },
  }
  return {
    bin: clientBin('gemini'), args: ['-p', prompt, '-m', model],
    env: { GOOGLE_GEMINI_BASE_URL: proxy.url, GEMINI_API_KEY: key, GEMINI_CLI_TRUST_WORKSPACE: 'true' }, home: { '.gemini/settings.json': JSON.stringify(settings) },
  }
}

const admin = managementReader(() => proxy.url, secret)

/** Upstream model calls (the scripted upstream answers these four paths). */
const modelCalls = () => upstream.requests.filter(request => /\/(chat\/completions|messages|responses)$|:(stream)?[gG]enerateContent/.test(request.url.split('?')[0]!))

describe('the coding agents are charged exactly what the upstream reported', () => {
  it('Claude Code, Codex and Gemini CLI, on their own family and on a translated one', { timeout: 600_000 }, async () => {
    const calls: Record<string, number> = {}
    for (const { agent, family, model, name } of runs) {
      const before = modelCalls().length
      const exit = await runAgentProcess(home => command(agent, model, `ck-${name}`, home))
      expect(exit.code, `${name}: ${exit.stderr.slice(-1500)}${exit.stdout.slice(-1500)}`).toBe(0)
      expect(exit.stdout, name).toContain('Hello from the scripted upstream.')
      const made = modelCalls().slice(before)
      calls[name] = made.length
      expect(made.length, name).toBeGreaterThan(0)
      // They stream, as they always do (the same-format ones through the usage tap).
      for (const call of made) expect(call.body.stream === true || call.url.includes(':streamGenerateContent'), `${name}: ${call.url}`).toBe(true)
      // The tpm window is a fixed minute: right after the run, when its requests fell in this one, it holds exactly their tokens.
      const view = await admin(`/client-keys/${name}`)
      const minutes = new Set([...view.recent.map((item: { time: number }) => Math.floor(item.time / 60_000)), Math.floor(Date.now() / 60_000)])
      if (minutes.size === 1) expect(view.usage.minute.tokens, `${name}: tpm charged`).toBe(made.length * tokensOf(scriptedUsage[family]))
    }
    // Claude Code asked for 32000 output tokens: the reservation, never what was charged.
    expect(upstream.requests.some(request => request.body.max_tokens === 32_000)).toBe(true)
    const { usage } = await admin('/usage')
    const { requests: recorded } = await admin('/requests?limit=500')
    for (const { family, name } of runs) {
      const want = scriptedUsage[family]
      const n = calls[name]!
      const view = await admin(`/client-keys/${name}`)
      // Every request the key made, as the key view lists it: the reported tokens, not estimated.
      const served = view.recent.filter((item: { status: number }) => item.status === 200)
      expect(served, name).toHaveLength(n)
      for (const item of served) expect(item, name).toMatchObject({ inputTokens: want.input, outputTokens: want.output, costUsd: expect.closeTo(costOf(want), 9) })
      for (const item of view.recent) expect(item.estimated, name).toBeUndefined()
      expect(view.usage.spent_usd.day, `${name}: budget charged`).toBeCloseTo(n * costOf(want), 9)
      expect(view.usage.minute.reserved_tokens, `${name}: nothing left reserved`).toBe(0)
      const row = usage.by_client_key[name]
      expect(row, name).toMatchObject({ requests: n, input_tokens: n * want.input, output_tokens: n * want.output, cached_tokens: n * want.cacheRead, reasoning_tokens: n * want.reasoning })
      expect(row.estimated_requests ?? 0, name).toBe(0)
      expect(row.cost_usd, name).toBeCloseTo(n * costOf(want), 6)
      const records = recorded.filter((item: { keyName?: string }) => item.keyName === name)
      expect(records, `${name}: recorder`).toHaveLength(n)
      for (const record of records) {
        expect(record.usage, name).toMatchObject({ inputTokens: want.input, outputTokens: want.output })
        expect(record.usage.cachedInputTokens ?? 0, name).toBe(want.cacheRead)
        expect(record.usage.cacheCreationInputTokens ?? 0, name).toBe(want.cacheWrite)
        expect(record.usage.estimated, name).toBeUndefined()
      }
    }
    // The sessions the agents named: each one's cache hit ratio is the scripted reads over the prompt.
    const sessions = Object.values(usage.by_session ?? {}) as Array<{ cache_hit_ratio: number }>
    expect(sessions.length).toBeGreaterThan(0)
    for (const session of sessions) expect(session.cache_hit_ratio).toBe(0.6)
    closed = true
    await proxy.close()
    for (const { family, model, name } of runs) {
      const want = scriptedUsage[family]
      const spans = receiver.spans.filter(span => span.kind === 2 && span.attributes['gen_ai.request.model'] === model)
      expect(spans, `${name}: spans`).toHaveLength(calls[name]!)
      for (const span of spans) {
        expect(span.attributes['gen_ai.usage.input_tokens'], name).toBe(want.input)
        expect(span.attributes['gen_ai.usage.output_tokens'], name).toBe(want.output)
        expect(span.attributes['gen_ai.usage.cache_read.input_tokens'] ?? 0, name).toBe(want.cacheRead)
        expect(span.attributes['gen_ai.usage.cache_creation.input_tokens'] ?? 0, name).toBe(want.cacheWrite)
      }
    }
    console.info(`agent usage: model calls per run ${JSON.stringify(calls)}, sessions ${sessions.length}`)
  })
})
