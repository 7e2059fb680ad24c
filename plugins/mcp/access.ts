import { isExcluded } from 'model-proxy/kit/models'
import type { McpAccess, McpGatewaySettings } from './schema.ts'

/** What one client key may reach: servers and namespaced tools, and its call rate. */
export interface KeyAccess {
  /** The name access and limits are counted by (`*` for keys with no entry of their own). */
  name: string
  server(server: string): boolean
  tool(server: string, namespaced: string): boolean
  callsPerMinute?: number
}

const nothing: KeyAccess = { name: '*', server: () => false, tool: () => false }
const everything: KeyAccess = { name: '*', server: () => true, tool: () => true }

/** One access entry, bundles expanded, as predicates. */
export function compileAccess(name: string, access: McpAccess, bundles: Record<string, string[]>): KeyAccess {
  const tools = [...access.tools ?? [], ...(access.bundles ?? []).flatMap(bundle => bundles[bundle] ?? [])]
  const allTools = access.tools === undefined && !access.bundles?.length
  const server = (server: string) =>
    (access.servers === undefined || isExcluded(access.servers, server)) && !isExcluded(access['deny-servers'] ?? [], server)
  return {
    name,
    server,
    tool: (serverName, namespaced) => server(serverName) && (allTools || isExcluded(tools, namespaced)) && !isExcluded(access['deny-tools'] ?? [], namespaced),
    callsPerMinute: access['calls-per-minute'],
  }
}

/**
 * The access of a key by its name: its own entry, else `*`, else nothing once any entry exists
 * (an operator who lists keys means the others get nothing); with no entries at all, everything.
 */
export function accessFor(settings: McpGatewaySettings, keyName: string | undefined): KeyAccess {
  const entries = settings.access
  const own = keyName !== undefined && Object.hasOwn(entries, keyName) ? keyName : undefined
  if (own) return compileAccess(own, entries[own], settings.bundles)
  if (Object.hasOwn(entries, '*')) return compileAccess('*', entries['*'], settings.bundles)
  if (Object.keys(entries).length) return nothing
  return keyName === undefined ? everything : { ...everything, name: keyName }
}
