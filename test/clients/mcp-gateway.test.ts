import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useAgentLab, type AgentRun, type RunPlace } from './lab/agent-lab.ts'
import { clientBin, opencodePluginInstalled, skipWithoutAgents } from './lab/clients.ts'

skipWithoutAgents()

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
/** The tool names each model request offered (what the mock model could call). */
const offered = (run: AgentRun) => JSON.stringify(run.upstream(family).map(body => body.tools?.map((tool: { name?: string; function?: { name: string } }) => tool.function?.name ?? tool.name)))
const gatewayCalls = (run: AgentRun) => run.calls.filter(call => call.path === '/mcp' && call.body.includes('"tools/call"'))

const memoryDir = mkdtempSync(join(tmpdir(), 'lab-memory-'))
afterAll(() => rmSync(memoryDir, { recursive: true, force: true }))

beforeAll(async () => {
  const kernel = lab.setup.proxy.proxy.kernel
  const memory = { name: 'memory', command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: join(memoryDir, 'memory.jsonl') } }
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
    // It probes the stateless revision (server/discover) and keeps to it: nothing refused, no initialize, no session.
    const mcp = run.calls.filter(call => call.path === '/mcp')
    expect(mcp.filter(call => call.status >= 400).map(call => `${call.status} ${call.body.slice(0, 80)}`)).toEqual([])
    if (mcp[0]?.body.includes('"server/discover"')) expect(mcp.filter(call => call.body.includes('"initialize"') || call.headers['mcp-session-id'])).toEqual([])
    expect(run.code, run.stderr.slice(-1500) + run.stdout.slice(-1500)).toBe(0)
    expect(gatewayCalls(run).length).toBe(1)
    expect(answered(run), offered(run) + run.stdout.slice(-800)).toBe(true)
    // With an MCP config, Claude Code also looks for its plugin marketplace on github.com (refused by the lab's trap).
    expect(run.outside.filter(what => !what.startsWith('CONNECT github.com'))).toEqual([])
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
    expect(gatewayCalls(run).length).toBe(1)
    expect(answered(run), offered(run) + run.stdout.slice(-800)).toBe(true)
    expect(run.outside).toEqual([])
  })

  it('Qwen Code (mcpServers in settings.json, httpUrl with headers)', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => ({
      bin: clientBin('qwen'),
      // Qwen Code keeps MCP tools deferred (tool_search / tool_call) even when it preloads its own: the model calls it through tool_call.
      args: ['--auth-type', 'openai', '--model', place.model, '-p', `(${place.nonce}) call tool_call with {"name":"mcp__proxy__${tool}","arguments":{"query":"proxy"}}`, '--output-format', 'json'],
      env: { OPENAI_BASE_URL: `${place.url}/v1`, OPENAI_API_KEY: place.key, OPENAI_MODEL: place.model },
      home: {
        '.qwen/settings.json': JSON.stringify({
          security: { auth: { selectedType: 'openai' } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          mcpServers: { proxy: { httpUrl: `${place.url}/mcp`, headers: { Authorization: `Bearer ${place.key}` }, trust: true } },
        }),
      },
    }))
    expect(run.code, run.stderr.slice(-1500) + run.stdout.slice(-1500)).toBe(0)
    expect(run.calls.filter(call => call.path === '/mcp' && call.status >= 400).map(call => `${call.status} ${call.body.slice(0, 80)}`)).toEqual([])
    expect(gatewayCalls(run).length).toBe(1)
    expect(answered(run), offered(run) + run.stdout.slice(-800)).toBe(true)
    expect(run.outside).toEqual([])
  })

  it('opencode (mcp in opencode.json, a remote server with headers)', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => ({
      bin: clientBin('opencode'),
      args: ['run', '--model', `proxy/${place.model}`, ...prompt(place).split(' ')],
      env: { OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1' },
      home: {
        '.config/opencode/opencode.json': JSON.stringify({
          $schema: 'https://opencode.ai/config.json',
          autoupdate: false,
          share: 'disabled',
          provider: { proxy: { npm: '@ai-sdk/openai-compatible', name: 'model proxy', options: { baseURL: `${place.url}/v1`, apiKey: place.key }, models: { [place.model]: { name: place.model } } } },
          mcp: { proxy: { type: 'remote', url: `${place.url}/mcp`, headers: { Authorization: `Bearer ${place.key}` }, enabled: true } },
        }),
        ...opencodePluginInstalled(),
      },
    }))
    expect(run.code, run.stderr.slice(-1500) + run.stdout.slice(-1500)).toBe(0)
    expect(run.calls.filter(call => call.path === '/mcp' && call.status >= 400).map(call => `${call.status} ${call.body.slice(0, 80)}`)).toEqual([])
    expect(gatewayCalls(run).length, offered(run) + run.stdout.slice(-1500)).toBe(1)
    expect(answered(run), offered(run) + run.stdout.slice(-800)).toBe(true)
    expect(run.outside).toEqual([])
  })

  it('Codex CLI (mcp_servers in config.toml, url with bearer_token_env_var)', { timeout: 180_000 }, async () => {
    const run = await lab.run(family, place => ({
      bin: clientBin('codex'),
      args: ['exec', '--strict-config', '--skip-git-repo-check', '--ephemeral', '--color', 'never', '--json', prompt(place)],
      env: { CODEX_HOME: `${place.home}/.codex`, PROXY_API_KEY: place.key, RUST_LOG: 'warn' },
      home: {
        // Codex offers an MCP server's tools inside one namespace tool (`mcp__proxy__`): the proxy flattens
        // it for the chat model and gives the model's call its namespace back.
        '.codex/config.toml': `model = "${place.model}"
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

[mcp_servers.proxy]
url = "${place.url}/mcp"
bearer_token_env_var = "PROXY_API_KEY"
`,
      },
    }))
    expect(run.code, run.stderr.slice(-1500) + run.stdout.slice(-1500)).toBe(0)
    expect(gatewayCalls(run).length, offered(run) + run.stdout.slice(-1500)).toBe(1)
    expect(answered(run), offered(run) + run.stdout.slice(-800)).toBe(true)
    expect(run.outside).toEqual([])
  })
})
