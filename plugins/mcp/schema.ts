import { z } from 'zod'

const count = () => z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(1, { error: 'must be >= 1' })
const seconds = () => z.number({ error: 'must be a number' }).positive({ error: 'must be > 0' })
const secondsOrOff = () => z.number({ error: 'must be a number' }).min(0, { error: 'must be >= 0 (0 = off)' })
const patterns = () => z.array(z.string().min(1, { error: 'must be a non-empty pattern' }))

/** A server's name prefixes its tools (`name__tool`): letters, digits and dashes, so `__` always splits. */
const serverName = z.string().regex(/^[a-zA-Z][a-zA-Z0-9-]{0,47}$/, { error: 'must start with a letter and hold only letters, digits and dashes (at most 48)' })

/** Calls on one server at once when its `max-concurrent` is not set. */
export const defaultServerConcurrency = 16

const common = {
  name: serverName,
  /** A server off in the config: not started, not listed. */
  disabled: z.boolean({ error: 'must be true or false' }).optional(),
  /** Tools of this server nobody may list or call (their names on the server, patterns allowed). */
  'disabled-tools': patterns().optional(),
  /** Per call; the gateway-wide `mcp.call-timeout-seconds` when absent. */
  'timeout-seconds': seconds().optional(),
  /** Calls running on this server at once, over every key (more wait, then fail at their timeout). */
  'max-concurrent': count().optional(),
}

/** A local server: a command the operator names, started (and restarted) by the proxy, spoken to over stdio. */
const stdioServer = z.strictObject({
  ...common,
  command: z.string().min(1, { error: 'must be a non-empty command' }),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
})

/**
 * An OAuth client the proxy holds for a remote server: client credentials grant, the token fetched,
 * cached until shortly before it expires, and fetched again on a 401. Its secret never reaches clients.
 */
const oauthClient = z.strictObject({
  grant: z.literal('client_credentials', { error: 'must be client_credentials' }).default('client_credentials'),
  /** The token endpoint; or `issuer`, whose metadata (RFC 8414) names it. */
  'token-url': z.url({ error: 'must be an http(s) URL' }).optional(),
  issuer: z.url({ error: 'must be an http(s) URL' }).optional(),
  'client-id': z.string().min(1, { error: 'must be a non-empty client id' }),
  'client-secret': z.string().min(1, { error: 'must be a non-empty secret' }),
  /** How the client authenticates to the token endpoint: HTTP Basic (the default) or in the form body. */
  'client-auth': z.enum(['basic', 'body'], { error: 'must be basic or body' }).default('basic'),
  scope: z.string().optional(),
  /** Sent as `audience` (some providers want it to pick the API the token is for). */
  audience: z.string().optional(),
  /** Sent as `resource` (RFC 8707): the MCP server's URL unless set; false sends none. */
  resource: z.union([z.url({ error: 'must be a URL or false' }), z.literal(false)]).optional(),
}).refine(oauth => Boolean(oauth['token-url']) !== Boolean(oauth.issuer), { error: 'needs either token-url or issuer (one of them)' })
export type OAuthClientConfig = z.infer<typeof oauthClient>

/** A remote server: Streamable HTTP (the current transport) or the legacy SSE one. */
const remoteServer = z.strictObject({
  ...common,
  url: z.url({ error: 'must be an http(s) URL' }),
  transport: z.enum(['streamable-http', 'sse'], { error: 'must be streamable-http or sse' }).default('streamable-http'),
  headers: z.record(z.string(), z.string()).optional(),
  /** Sent as `Authorization: Bearer <token>`; never shown to clients. */
  'bearer-token': z.string().optional(),
  oauth: oauthClient.optional(),
}).refine(server => !(server.oauth && server['bearer-token']), { error: 'has both bearer-token and oauth: keep one', path: ['oauth'] })

export const mcpServerSchema = z.union([stdioServer, remoteServer], { error: 'must have either command (a local stdio server) or url (a remote server)' })
export type McpServerConfig = z.infer<typeof mcpServerSchema>
export type StdioServerConfig = z.infer<typeof stdioServer>
export type RemoteServerConfig = z.infer<typeof remoteServer>
export const isStdio = (server: McpServerConfig): server is StdioServerConfig => 'command' in server

/** What one client key may reach through `/mcp` (and through the tool loop for model requests). */
export const mcpAccessSchema = z.object({
  /** Server name patterns the key may use; absent: every server. */
  servers: patterns().optional(),
  'deny-servers': patterns().optional(),
  /** Namespaced tool patterns (`server__tool`, `fs__read_*`); absent with no bundles: every tool. */
  tools: patterns().optional(),
  'deny-tools': patterns().optional(),
  /** Named tool bundles (`mcp.bundles`) added to `tools`. */
  bundles: z.array(z.string().min(1)).optional(),
  /** Tool calls a minute for this key. */
  'calls-per-minute': count().optional(),
})
export type McpAccess = z.infer<typeof mcpAccessSchema>

const gatewaySchema = z.object({
  'call-timeout-seconds': seconds().default(60),
  /** A tool result (or resource) larger than this, as JSON, is replaced by an error result. */
  'max-result-kb': count().default(1024),
  /** Calls one client key runs at once over all servers. */
  'max-concurrent-per-key': count().default(8),
  /** An SSE comment on a quiet `/mcp` event stream after this many seconds (0 = off): clients and proxies drop silent streams. */
  'keepalive-seconds': secondsOrOff().default(15),
  /** Named lists of namespaced tool patterns a key can be given (`access.<key>.bundles`). */
  bundles: z.record(z.string(), patterns()).default({}),
  /**
   * Access by client key name (`client-keys` names; `*`: every other key, and local clients with no keys).
   * Empty: every key reaches every enabled server and tool.
   */
  access: z.record(z.string(), mcpAccessSchema).default({}),
}).superRefine((gateway, ctx) => {
  for (const [name, access] of Object.entries(gateway.access)) {
    for (const bundle of access.bundles ?? []) {
      if (!(bundle in gateway.bundles)) ctx.addIssue({ code: 'custom', path: ['access', name, 'bundles'], message: `unknown bundle ${JSON.stringify(bundle)}` })
    }
  }
})
export type McpGatewaySettings = z.infer<typeof gatewaySchema>

export const mcpConfigSchema = z.looseObject({
  'mcp-servers': z.array(mcpServerSchema).default([]).superRefine((servers, ctx) => {
    const names = new Set<string>()
    for (const [i, server] of servers.entries()) {
      if (names.has(server.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate name ${JSON.stringify(server.name)}` })
      names.add(server.name)
    }
  }),
  mcp: gatewaySchema.default(() => gatewaySchema.parse({})),
})

export const mcpServersOf = (config: object): McpServerConfig[] => (config as { 'mcp-servers'?: McpServerConfig[] })['mcp-servers'] ?? []
export const mcpSettingsOf = (config: object): McpGatewaySettings => (config as { mcp?: McpGatewaySettings }).mcp ?? gatewaySchema.parse({})

/** Whether a changed server config still runs the same process/connection (only limits or disabled tools changed). */
export function sameStart(a: McpServerConfig, b: McpServerConfig): boolean {
  const start = ({ 'disabled-tools': _t, 'timeout-seconds': _s, 'max-concurrent': _c, ...rest }: McpServerConfig) => JSON.stringify(rest)
  return start(a) === start(b)
}

/** Whether what keys may reach changed (their lists then change). */
export const accessChanged = (a: McpGatewaySettings, b: McpGatewaySettings) => JSON.stringify([a.access, a.bundles]) !== JSON.stringify([b.access, b.bundles])
