import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { ProxyKernel } from 'model-proxy'
import { clientKeyId } from 'model-proxy/kit/access'
import { accessFor } from './access.ts'
import { Gateway, type ToolCallRecord } from './gateway.ts'
import { addGatewayRoutes } from './routes.ts'
import { mcpServersOf, mcpSettingsOf } from './schema.ts'
import { Sessions } from './sessions.ts'
import type { ListKind } from './upstream.ts'
import { createGatewayMetrics } from './metrics.ts'
import { addToolLoop } from './loop/index.ts'
import { addLegacyRoutes } from './routes-legacy.ts'
import { createModernEndpoint, type ModernEndpoint } from './modern.ts'
import { ResourceSubscriptions } from './subscriptions.ts'
import { shareLogs } from './logging.ts'

const notices: Record<ListKind, 'sendToolListChanged' | 'sendResourceListChanged' | 'sendPromptListChanged'> = {
  tools: 'sendToolListChanged', resources: 'sendResourceListChanged', prompts: 'sendPromptListChanged',
}

/** The gateway, its routes (`/mcp`, management, the tool loop) and its observers, started once MCP servers are configured. */
export function startGateway(kernel: ProxyKernel): void {
    const listeners = new Map<Server, string | undefined>()
    let modern: ModernEndpoint | undefined
    let subscriptions: ResourceSubscriptions | undefined
    const observers: Array<(record: ToolCallRecord) => void> = (kernel.services.mcpToolCall ??= [])
    const gateway = new Gateway(mcpSettingsOf(kernel.config), {
      changed: kind => {
        // Once to each session, on the stream it opened last: a server sends a message on one stream, never on all.
        const told = new Set<string | undefined>()
        for (const [server, session] of [...listeners].reverse()) {
          if (session === undefined || !told.has(session)) void server[notices[kind]]().catch(() => {})
          told.add(session)
        }
        modern?.changed(kind)
      },
      updated: uri => {
        subscriptions?.updated(uri)
        modern?.updated(uri)
      },
      called: record => {
        for (const observer of observers) {
          try {
            observer(record)
          } catch (error) {
            kernel.warnLimited('mcp-observer', `mcp: a tool-call observer failed: ${(error as Error).message}`)
          }
        }
      },
      warn: message => kernel.warnLimited('mcp', message),
    }, kernel.fleet)
    kernel.services.mcpGateway = gateway
    observers.push(createGatewayMetrics(kernel.services.metricsRegistry, gateway))
    gateway.apply(mcpServersOf(kernel.config), mcpSettingsOf(kernel.config))
    kernel.hooks.hook('config-reload', config => gateway.apply(mcpServersOf(config), mcpSettingsOf(config)))

    const sessions = new Sessions(kernel.storage, kernel.fleet)
    subscriptions = new ResourceSubscriptions(gateway, kernel.fleet, message => kernel.warnLimited('mcp', message))
    // A closed session's streams end here: its client asked for no more (DELETE), on this instance or another.
    sessions.onclosed = (id) => {
      subscriptions?.drop(id)
      for (const [server, session] of listeners) if (session === id) void server.close().catch(() => {})
    }
    // A level asked on any instance makes this instance's connections as verbose, for the streams open here.
    sessions.onlevel = level => void gateway.setLogLevel(undefined, level)
    const stopSharingLogs = shareLogs(gateway.logs, kernel.fleet)
    const caller = (key: string | undefined) => {
      const name = key === undefined ? undefined : kernel.services.clientKeys?.nameOf(key)
      const keyId = name ?? (key === undefined ? 'local' : clientKeyId(key))
      return { keyId, access: () => accessFor(mcpSettingsOf(kernel.config), name) }
    }
    const keepaliveSeconds = () => mcpSettingsOf(kernel.config)['keepalive-seconds']
    const legacy = addLegacyRoutes(kernel, { gateway, sessions, listeners, caller, subscriptions, keepaliveSeconds }, kernel.fleet)
    modern = createModernEndpoint(gateway, subscriptions, keepaliveSeconds, error => kernel.logger.debug(`mcp: ${error.message}`))
    addGatewayRoutes(kernel, { gateway, sessions, listeners, caller, legacyStream: legacy.stream, modern, subscriptions, keepaliveSeconds })
    addToolLoop(kernel, gateway, caller)
    kernel.hooks.hook('close', async () => {
      legacy.close()
      subscriptions?.close()
      stopSharingLogs()
      sessions.dispose()
      for (const server of listeners.keys()) void server.close().catch(() => {})
      await modern?.close()
      await gateway.close()
    })
}
