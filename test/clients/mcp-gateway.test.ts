import { beforeAll, describe, expect, it } from 'vitest'
import { createRequire } from 'node:module'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useAgentLab, type AgentRun, type RunPlace } from './lab/agent-lab.ts'
import { clientBin } from './lab/clients.ts'

/**
 * The real coding agents configured to use the proxy's /mcp as an MCP server, as their users write it,
 * next to the proxy as their model: the (mock) model calls a gateway tool, the agent calls it through
 * /mcp, the tool's result reaches the model. The gateway fronts the reference memory server from npm.
 */
const lab = useAgentLab()
const require = createRequire(import.meta.url)
const family = 'compat'
const tool = 'memory__search_nodes'
/** The mock model calls an offered tool whose name the prompt holds; the agents name MCP tools each their own way. */
const prompt = (place: RunPlace) => `(${place.nonce}) use mcp__proxy__${tool} mcp_proxy_${tool}`
const answered = (run: AgentRun) => run.stdout.includes('The tool said:') && run.stdout.includes('entities')
const gatewayCalls = (run: AgentRun) => run.calls.filter(call => call.path === '/mcp' && call.body.includes('"tools/call"'))

beforeAll(async () => {
  const kernel = lab.setup.proxy.proxy.kernel
  const memory = { name: 'memory', command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: join(mkdtempSync(join(tmpdir(), 'lab-memory-')), 'memory.jsonl') } }
  await kernel.applyConfig({ ...kernel.config, 'mcp-servers': [memory] } as never)
  const gateway = kernel.services.mcpGateway!
  for (let i = 0; i < 200 && gateway.servers.get('memory')?.state !== 'up'; i++) await new Promise(resolve => setTimeout(resolve, 100))
}, 60_000)

describe.concurrent('[lab] coding agents with the proxy\'s /mcp', () => {
  it('Claude Code (--mcp-config, http)', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => ({
      bin: clientBin('claude'),
      args: ['--model', place.model, '-p', prompt(place), '--output-format', 'json', '--strict-mcp-config', '--allowedTools', `mcp__proxy__${tool}`,
        '--mcp-config', JSON.stringify({ mcpServers: { proxy: { type: 'http', url: `${place.url}/mcp`, headers: { Authorization: `Bearer ${place.key}` } } } })],
      env: {
        ANTHROPIC_BASE_URL: place.url, ANTHROPIC_AUTH_TOKEN: place.key, ANTHROPIC_MODEL: place.model, ANTHROPIC_SMALL_FAST_MODEL: place.model, ANTHROPIC_DEFAULT_HAIKU_MODEL: place.model,
        DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
        // MCP tools offered to the model up front, not behind its tool search.
        ENABLE_TOOL_SEARCH: 'false',
      },
    }))
    expect(run.code, run.stderr.slice(-1500) + run.stdout.slice(-1500)).toBe(0)
    expect(answered(run), JSON.stringify(run.upstream(family).map(body => body.tools?.map((t: any) => t.function?.name ?? t.name)))).toBe(true)
    expect(gatewayCalls(run).length).toBe(1)
    expect(answered(run), JSON.stringify(run.upstream(family).map(body => body.tools?.map((t: any) => t.function?.name ?? t.name)))).toBe(true)
    // With an MCP config, Claude Code also looks for its plugin marketplace on github.com (refused by the lab's trap).
    expect(run.outside.filter(what => !what.startsWith('CONNECT github.com'))).toEqual([])
  })

  it('Codex (mcp_servers in config.toml, streamable HTTP with a bearer token)', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => ({
      bin: clientBin('codex'),
      args: ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', '--dangerously-bypass-approvals-and-sandbox', prompt(place)],
      env: { CODEX_HOME: `${place.home}/.codex`, PROXY_API_KEY: place.key, RUST_LOG: 'warn' },
      home: {
        '.codex/config.toml': `model = "${place.model}"
model_provider = "proxy"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
tool_search = false

[model_providers.proxy]
name = "model proxy"
base_url = "${place.url}/v1"
env_key = "PROXY_API_KEY"
wire_api = "responses"

[mcp_servers.proxy]
url = "${place.url}/mcp"
bearer_token_env_var = "PROXY_API_KEY"
`,
      },
    }))
    expect(run.code, run.stderr.slice(-1500) + run.stdout.slice(-1500)).toBe(0)
    expect(answered(run), JSON.stringify(run.upstream(family).map(body => body.tools?.map((t: any) => t.function?.name ?? t.name)))).toBe(true)
    expect(gatewayCalls(run).length).toBe(1)
    expect(answered(run), JSON.stringify(run.upstream(family).map(body => body.tools?.map((t: any) => t.function?.name ?? t.name)))).toBe(true)
    expect(run.outside).toEqual([])
  })

  it('Gemini CLI (mcpServers in settings.json, httpUrl with headers)', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => ({
      bin: clientBin('gemini'),
      args: ['-p', prompt(place), '-m', place.model, '--output-format', 'json'],
      env: { GOOGLE_GEMINI_BASE_URL: place.url, GEMINI_API_KEY: place.key, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
      home: {
        '.gemini/settings.json': JSON.stringify({
          security: { auth: { selectedType: 'gemini-api-key' } },
          privacy: { usageStatisticsEnabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          telemetry: { enabled: false },
          model: { name: place.model },
          mcpServers: { proxy: { httpUrl: `${place.url}/mcp`, headers: { Authorization: `Bearer ${place.key}` }, trust: true } },
        }),
      },
    }))
    expect(run.code, run.stderr.slice(-1500) + run.stdout.slice(-1500)).toBe(0)
    expect(answered(run), JSON.stringify(run.upstream(family).map(body => body.tools?.map((t: any) => t.function?.name ?? t.name)))).toBe(true)
    expect(gatewayCalls(run).length).toBe(1)
    expect(answered(run), JSON.stringify(run.upstream(family).map(body => body.tools?.map((t: any) => t.function?.name ?? t.name)))).toBe(true)
    expect(run.outside).toEqual([])
  })
})
