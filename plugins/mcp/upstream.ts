import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import type { LoggingLevel, Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js'
import { maskValues } from 'model-proxy/kit/access'
import { maskedItems, maskedResult, serverSecrets } from './server-secrets.ts'
import { passes, type LogParams } from './logging.ts'
import { withOAuth } from './oauth-fetch.ts'
import { OAuthTokenSource } from './oauth-token.ts'
import { defaultServerConcurrency, isStdio, type McpServerConfig } from './schema.ts'
import { Semaphore } from './semaphore.ts'
import { LocalServerTransport } from './stdio-process.ts'
import { coalesced } from './coalesce.ts'
import { connectLegacy, connectNegotiated, pages, type CallOptions, type ClientEvents, type ListKind, type UpstreamClient } from './upstream-client.ts'

export type ServerState = 'starting' | 'up' | 'down'
export type { ListKind } from './upstream-client.ts'

/** What the gateway knows of one configured server's lists, fetched on connect and on each list-changed notice. */
export interface ServerLists {
  tools: Tool[]
  resources: Resource[]
  templates: ResourceTemplate[]
  prompts: Prompt[]
}

export interface UpstreamEvents {
  /** A list of this server changed (after a reconnect too): clients get a list-changed notice. */
  changed(kind: ListKind): void
  /** A log notice of the server (only once some client asked for a level, unless the server sends them anyway). */
  log(params: LogParams): void
  /** A resource of the server some client subscribed to changed (its URI as the server names it). */
  updated(uri: string): void
  warn(message: string): void
  /** A request of the server to its client, for the gateway client whose request it belongs to. */
  request: ClientEvents['request']
  /** The longest message read from a local server (a longer one fails its request, not the server). */
  maxLineBytes(): number
}

/** Backoff between reconnects: 1 s doubling to 60 s. */
export const backoffMs = (failures: number) => Math.min(60_000, 1000 * 2 ** Math.max(0, failures - 1))
const pingEveryMs = 30_000
const connectTimeoutMs = 30_000

/**
 * One configured MCP server, spoken to through the SDK's client: started (a command) or connected (a
 * URL), its lists kept, health watched by ping, and restarted with backoff when it dies. Its secrets
 * (headers, token, env) stay here: nothing of the config goes to clients but its name.
 */
export class UpstreamServer {
  state: ServerState = 'starting'
  error?: string
  /** When the state last changed (epoch ms). */
  since = Date.now()
  failures = 0
  nextRetryAt?: number
  lists: ServerLists = { tools: [], resources: [], templates: [], prompts: [] }
  readonly slots: Semaphore
  private client?: UpstreamClient
  private stdio?: LocalServerTransport
  private retryTimer?: NodeJS.Timeout
  private pingTimer?: NodeJS.Timeout
  private closed = false
  /** Counts connection attempts: one overtaken by a restart or a close is dropped when it ends. */
  private attempt = 0
  /**
   * The level asked of a 2025-era connection: one for every client, so only ever more verbose (the most
   * any client asked); the gateway filters for each client. Asked again after a reconnect.
   */
  private logLevel?: LoggingLevel
  /** The resources subscribed to on the connection (once for every client), subscribed again after a reconnect. */
  private readonly subscribed = new Set<string>()
  private readonly refreshOnce = coalesced((kind: ListKind) => this.refresh(kind))
  /** The OAuth client's token, kept across reconnects (a changed `oauth` makes a new server). */
  private readonly oauth?: OAuthTokenSource

  constructor(public config: McpServerConfig, private readonly events: UpstreamEvents) {
    this.slots = new Semaphore(config['max-concurrent'] ?? defaultServerConcurrency)
    if (!isStdio(config) && config.oauth) this.oauth = new OAuthTokenSource(config.oauth, config.url)
  }

  get name(): string { return this.config.name }

  /** What this server holds that nobody may see (server-secrets.ts). */
  get secrets(): string[] {
    return serverSecrets(this.config, this.oauth?.current)
  }

  /** `text` from or about this server (its errors, stderr, results) with its secrets masked: a server may quote what it was given. */
  mask(text: string): string {
    return maskValues(text, this.secrets)
  }

  /** A result of this server with its secrets masked in every string. */
  maskResult<T>(result: T): T {
    return maskedResult(result, this.secrets)
  }

  /** A local server's process id while it runs. */
  get pid(): number | undefined { return this.stdio?.pid ?? undefined }

  /** The revision the server speaks, once connected (undefined: a 2025-era handshake). */
  get protocolVersion(): string | undefined { return this.client?.protocolVersion }

  /** The connected client, or an error saying why there is none. */
  connected(): UpstreamClient {
    if (this.state !== 'up' || !this.client) throw new Error(`MCP server ${this.name} is unavailable${this.error ? `: ${this.error}` : ''}`)
    return this.client
  }

  start(): void { void this.connect() }

  /** Connects in the way the config names: a command (stdio) or the legacy SSE transport with the 2025 handshake, Streamable HTTP negotiating. */
  private open(events: ClientEvents): Promise<UpstreamClient> {
    const config = this.config
    if (isStdio(config)) {
      const transport = new LocalServerTransport({
        command: config.command, args: config.args, cwd: config.cwd,
        env: { ...getDefaultEnvironment(), ...config.env }, stderr: 'pipe',
      }, this.events.maxLineBytes)
      this.stdio = transport
      return connectLegacy(transport, events, connectTimeoutMs)
    }
    const headers: Record<string, string> = { ...config.headers }
    if (config['bearer-token']) headers.authorization = `Bearer ${config['bearer-token']}`
    const url = new URL(config.url)
    const authorized = (base: typeof fetch) => this.oauth ? withOAuth(this.oauth, base) : base
    if (config.transport !== 'sse') return connectNegotiated(url, { headers, fetch: authorized(fetch) }, events, connectTimeoutMs)
    const withHeaders: typeof fetch = (input, init) => {
      const merged = new Headers(init?.headers)
      for (const [name, value] of Object.entries(headers)) merged.set(name, value)
      return fetch(input, { ...init, headers: merged })
    }
    return connectLegacy(new SSEClientTransport(url, { requestInit: { headers }, fetch: authorized(fetch), eventSourceInit: { fetch: authorized(withHeaders) } }), events, connectTimeoutMs)
  }

  private async connect(): Promise<void> {
    if (this.closed) return
    const attempt = ++this.attempt
    // The last failure stays readable while it starts again.
    this.setState('starting', this.error)
    let client: UpstreamClient | undefined
    const events: ClientEvents = {
      closed: () => { if (client && this.client === client) this.fail(new Error(this.exitReason('the connection closed'))) },
      error: error => this.events.warn(`MCP server ${this.name}: ${this.mask(error.message)}`),
      changed: kind => { if (client && this.client === client) void this.refreshOnce(kind) },
      log: params => { if (client && this.client === client) this.events.log(this.maskResult(params)) },
      updated: uri => { if (client && this.client === client) this.events.updated(uri) },
      request: (method, params, signal) => this.events.request(method, this.maskResult(params), signal),
    }
    try {
      client = await this.open(events)
      if (this.closed || attempt !== this.attempt) return void client.close().catch(() => {})
      this.client = client
      await Promise.all((['tools', 'resources', 'prompts'] as const).map(kind => this.fetchList(kind)))
      this.failures = 0
      this.nextRetryAt = undefined
      this.setState('up')
      for (const kind of ['tools', 'resources', 'prompts'] as const) this.events.changed(kind)
      if (this.logLevel && client.capabilities()?.logging && !client.levelPerRequest) void this.askLevel(client, this.logLevel)
      for (const uri of this.subscribed) {
        void client.subscribe(uri, { timeout: 10_000 }).catch(error => this.events.warn(`MCP server ${this.name}: could not subscribe to ${uri} again: ${this.mask(error.message)}`))
      }
      this.pingTimer = setInterval(() => void this.ping(), pingEveryMs)
      this.pingTimer.unref()
    } catch (error) {
      if (client && this.client === client) this.client = undefined
      void client?.close().catch(() => {})
      if (attempt === this.attempt) this.fail(new Error(this.exitReason((error as Error).message)))
    }
  }

  private exitReason(what: string): string {
    const tail = (this.stdio?.stderrTail ?? '').trim().split('\n').slice(-3).join(' | ')
    return tail ? `${what} (stderr: ${tail})` : what
  }

  private setState(state: ServerState, error?: string): void {
    if (state !== this.state) this.since = Date.now()
    this.state = state
    this.error = error
  }

  /** The server is gone (exit, closed connection, failed ping): down, lists emptied, a retry scheduled. */
  fail(error: Error): void {
    if (this.closed) return
    const client = this.client
    this.client = undefined
    clearInterval(this.pingTimer)
    if (client) void client.close().catch(() => {})
    const hadLists = this.lists.tools.length + this.lists.resources.length + this.lists.prompts.length > 0
    this.lists = { tools: [], resources: [], templates: [], prompts: [] }
    this.failures++
    const wait = backoffMs(this.failures)
    this.nextRetryAt = Date.now() + wait
    // Its stderr or a refusal may quote its env, token or headers: masked before anyone sees it.
    const reason = this.mask(error.message)
    this.setState('down', reason)
    this.events.warn(`MCP server ${this.name} is down (${reason}); retrying in ${Math.round(wait / 1000)} s`)
    if (hadLists) for (const kind of ['tools', 'resources', 'prompts'] as const) this.events.changed(kind)
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => void this.connect(), wait)
    this.retryTimer.unref()
  }

  private async ping(): Promise<void> {
    const client = this.client
    if (!client) return
    try {
      await client.ping(10_000)
    } catch (error) {
      if (this.client === client) this.fail(new Error(`no answer to ping: ${(error as Error).message}`))
    }
  }

  /** A server restarted by a config change keeps what clients asked of the one before: its level, its subscriptions. */
  takeOver(previous: UpstreamServer): void {
    this.logLevel = previous.logLevel
    for (const uri of previous.subscribed) this.subscribed.add(uri)
  }

  /** Whether a level was asked for the whole connection: its notices are for every client that asked, not one request's. */
  get logsShared(): boolean {
    return this.logLevel !== undefined && this.client?.levelPerRequest === false
  }

  /** Makes the server send notices of `level` and above, if it logs and its level is per connection. */
  async wantLevel(level: LoggingLevel): Promise<void> {
    const client = this.client
    if (this.state !== 'up' || !client?.capabilities()?.logging || client.levelPerRequest) return
    if (this.logLevel && passes(level, this.logLevel)) return
    this.logLevel = level
    await this.askLevel(client, level)
  }

  /** Subscribes the connection to a resource (the server's answer, error included, is the caller's). */
  async subscribe(uri: string, options: CallOptions): Promise<void> {
    await this.connected().subscribe(uri, options)
    this.subscribed.add(uri)
  }

  /** Ends the connection's subscription: the last client subscribed to `uri` left. */
  async unsubscribe(uri: string, options: CallOptions): Promise<void> {
    this.subscribed.delete(uri)
    await this.connected().unsubscribe(uri, options)
  }

  private async askLevel(client: UpstreamClient, level: LoggingLevel): Promise<void> {
    try {
      await client.setLoggingLevel(level, { timeout: 10_000 })
    } catch (error) {
      this.events.warn(`MCP server ${this.name}: logging/setLevel failed: ${this.mask((error as Error).message)}`)
    }
  }

  private async refresh(kind: ListKind): Promise<void> {
    try {
      await this.fetchList(kind)
      this.events.changed(kind)
    } catch (error) {
      this.events.warn(`MCP server ${this.name}: could not list its ${kind} again: ${this.mask((error as Error).message)}`)
    }
  }

  private async fetchList(kind: ListKind): Promise<void> {
    const client = this.client
    if (!client || !client.capabilities()?.[kind]) return
    // Masked like results: a description or schema may quote the server's env or token.
    if (kind === 'tools') this.lists.tools = maskedItems(await pages(cursor => client.tools(cursor)), 'name', this.secrets)
    if (kind === 'prompts') this.lists.prompts = maskedItems(await pages(cursor => client.prompts(cursor)), 'name', this.secrets)
    if (kind === 'resources') {
      this.lists.resources = maskedItems(await pages(cursor => client.resources(cursor)), 'uri', this.secrets)
      this.lists.templates = maskedItems(await pages(cursor => client.templates(cursor)).catch(() => []), 'uriTemplate', this.secrets)
    }
  }

  /** Stop and start again now (the management API's restart), the failure count kept. */
  restart(): void {
    if (this.closed) return
    clearTimeout(this.retryTimer)
    clearInterval(this.pingTimer)
    const client = this.client
    this.client = undefined
    void client?.close().catch(() => {})
    // A command still starting (no answer to `initialize` yet) has no client to close: its process is stopped here (and in close).
    void this.stdio?.close().catch(() => {})
    void this.connect()
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retryTimer)
    clearInterval(this.pingTimer)
    const client = this.client
    this.client = undefined
    await Promise.all([client?.close().catch(() => {}), this.stdio?.close().catch(() => {})])
  }
}
