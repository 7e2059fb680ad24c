import { defineProxyPlugin } from 'model-proxy'
import { mcpConfigSchema, mcpServersOf } from './schema.ts'
import './api.ts'
import { addMcpManagementRoutes } from './routes-management.ts'

/**
 * The MCP gateway (docs/mcp.md): `/mcp` fronts the operator's MCP servers (`mcp-servers`) as one,
 * with the client keys of the model endpoints and per-key access (`mcp.access`). The MCP SDK (over a
 * second of imports on a busy machine) is loaded only once a server is configured, at start or by a
 * live config change; until then the plugin adds no route on the request path (its management routes
 * answer an empty list).
 */
export default defineProxyPlugin({
  name: 'mcp',
  after: ['client-keys', 'management', 'metrics'],
  configSchema: mcpConfigSchema,
  async setup(kernel) {
    let started: Promise<void> | undefined
    const start = () => started ??= import('./start.ts').then(module => module.startGateway(kernel))
    // Management routes always answer (an empty list before any server is configured): the panel's page asks.
    const guard = kernel.services.managementGuard
    if (guard) addMcpManagementRoutes(kernel, guard, () => kernel.services.mcpGateway)
    if (mcpServersOf(kernel.config).length) await start()
    kernel.hooks.hook('config-reload', async (config) => {
      if (mcpServersOf(config).length) await start()
    })
  },
})
