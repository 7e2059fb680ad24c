import type { H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, listIn, ManagementError, readBody, updateConfig, writeKeeping, type Guard } from '../management/api.ts'
import { accessFor } from './access.ts'
import type { Gateway } from './gateway.ts'
import { namespaced } from './names.ts'
import { isStdio, mcpServersOf, mcpSettingsOf } from './schema.ts'
import type { UpstreamServer } from './upstream.ts'

const param = (event: H3Event, name: string) => decodeURIComponent(event.context.params?.[name] ?? '')

/** Where a server is, without its secrets: a command's name, a URL's origin (no path, query or token). */
function whereOf(server: UpstreamServer): string {
  const config = server.config
  if (isStdio(config)) return config.command.split('/').pop()!
  return new URL(config.url).origin
}

/** Key names access entries can name: every `client-keys` name, and `*` for the rest. */
const keyNamesOf = (config: object) => [...((config as { 'client-keys'?: Array<{ name: string }> })['client-keys'] ?? []).map(entry => entry.name), '*']

/**
 * Management of the gateway's servers (`/v0/management/mcp/...`): health, tools with the keys that may
 * call each, enabling/disabling a tool (written to `disabled-tools` in the config file, so it holds on
 * every instance and across restarts), and a restart of a server.
 */
export function addMcpManagementRoutes(kernel: ProxyKernel, guard: Guard, gatewayOf: () => Gateway | undefined): void {
  // Until a server is configured the gateway is not started: the list is empty, a name is unknown.
  const gateway = { servers: { get: (name: string) => gatewayOf()?.servers.get(name) }, toolEnabled: (...args: Parameters<Gateway['toolEnabled']>) => gatewayOf()?.toolEnabled(...args) ?? false }
  const serverOf = (event: H3Event) => {
    const server = gateway.servers.get(param(event, 'name'))
    if (!server) throw new ManagementError(404, 'unknown MCP server')
    return server
  }
  const toolsOf = (server: UpstreamServer) => {
    const settings = mcpSettingsOf(kernel.config)
    const names = keyNamesOf(kernel.config)
    return server.lists.tools.map(tool => {
      const full = namespaced(server.name, tool.name)
      return {
        name: tool.name, namespaced: full, title: tool.title, description: tool.description,
        enabled: gateway.toolEnabled(server, tool.name),
        keys: names.filter(name => accessFor(settings, name === '*' ? undefined : name).tool(server.name, full)),
      }
    })
  }
  const summary = (server: UpstreamServer) => ({
    name: server.name,
    transport: isStdio(server.config) ? 'stdio' : server.config.transport,
    where: whereOf(server),
    state: server.state,
    error: server.error,
    since: server.since,
    failures: server.failures,
    nextRetryAt: server.nextRetryAt,
    pid: server.pid,
    // The stateless revision it speaks (2026-07-28), or undefined for a 2025-era handshake.
    protocolVersion: server.protocolVersion,
    tools: server.lists.tools.length,
    resources: server.lists.resources.length,
    prompts: server.lists.prompts.length,
    activeCalls: server.slots.active,
  })
  const configured = () => mcpServersOf(kernel.config).map(config => gateway.servers.get(config.name) ? summary(gateway.servers.get(config.name)!) : { name: config.name, state: 'disabled' as const })

  addManagementRoute(kernel, guard, 'GET', '/mcp/servers', () => ({ servers: configured() }))
  addManagementRoute(kernel, guard, 'GET', '/mcp/servers/:name', event => ({ ...summary(serverOf(event)), toolList: toolsOf(serverOf(event)) }))
  addManagementRoute(kernel, guard, 'GET', '/mcp/servers/:name/tools', event => ({ tools: toolsOf(serverOf(event)) }))
  addManagementRoute(kernel, guard, 'POST', '/mcp/servers/:name/restart', (event) => {
    serverOf(event).restart()
    return { status: 'ok' }
  })
  addManagementRoute(kernel, guard, ['PUT', 'PATCH'], '/mcp/servers/:name/tools/:tool', async (event) => {
    const server = serverOf(event)
    const tool = param(event, 'tool')
    const body = await readBody(event) as { enabled?: unknown } | null
    if (typeof body?.enabled !== 'boolean') throw new ManagementError(400, 'invalid body: send {"enabled": true|false}')
    if (!kernel.configFile) throw new ManagementError(409, 'no config file to write to')
    // The server's entry and its list are read at this write's turn in the file's queue: two tools
    // switched at once each change the list the other left.
    await updateConfig(kernel, (doc) => {
      const entries = listIn(doc, 'mcp-servers') as Array<{ name?: unknown; 'disabled-tools'?: string[] }>
      const at = entries.findIndex(entry => entry.name === server.name)
      if (at < 0) throw new ManagementError(404, 'unknown MCP server')
      const current = entries[at]!['disabled-tools']
      const disabled = new Set(current ?? [])
      if (body.enabled) disabled.delete(tool)
      else disabled.add(tool)
      writeKeeping(doc, ['mcp-servers', at, 'disabled-tools'], [...disabled], current)
    })
    if (body.enabled && !gateway.toolEnabled(gateway.servers.get(server.name) ?? server, tool)) {
      throw new ManagementError(409, `${tool} stays disabled by a pattern in disabled-tools`)
    }
    return { status: 'ok', enabled: body.enabled }
  })
}
