import { McpError, ErrorCode, type CallToolResult, type LoggingLevel, type Tool, type Prompt, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js'
import type { Fleet } from 'model-proxy/kit/fleet'
import { isExcluded } from 'model-proxy/kit/models'
import type { KeyAccess } from './access.ts'
import { namespaced, namespacedUri, splitName, splitUri } from './names.ts'
import { accessChanged, defaultServerConcurrency, sameStart, type McpGatewaySettings, type McpServerConfig } from './schema.ts'
import { UpstreamServer, type ListKind } from './upstream.ts'
import { Semaphore } from './semaphore.ts'
import { CallRate } from './call-rate.ts'
import { LogRelay, type LogSink } from './logging.ts'
import { ClientRequests, unattended, type ClientChannel } from './client-requests.ts'
import { ClientAnswers } from './client-answers.ts'
import { InputRounds } from './input-rounds.ts'
import { lineLimit } from './stdio-lines.ts'

/** Who hears what a server does for a client's request while it runs: its log notices, its requests to the client. */
export interface Attended { log?: LogSink; client?: ClientChannel }

/** Who calls, and how the call may be stopped or followed. */
export interface CallContext {
  /** Counts per key (concurrency, rate): the key's name, or a masked form of it. */
  keyId: string
  access: KeyAccess
  signal?: AbortSignal
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void
  /** Where the caller hears the server's log notices while the call runs, if it asked for them. */
  log?: LogSink
  /** Where the server's requests to its client (elicitation, sampling, roots) go while the call runs. */
  client?: ClientChannel
}

/** One finished tool call, for the recorder, traces and metrics. */
export interface ToolCallRecord {
  server: string
  tool: string
  keyId: string
  arguments: unknown
  startedAt: number
  durationMs: number
  /** The result as JSON (cut by the observer), absent on failure. */
  resultBytes?: number
  result?: CallToolResult
  /** `isError` results count as errors too. */
  error?: string
  outcome: 'ok' | 'tool_error' | 'error' | 'refused' | 'timeout'
}

export interface GatewayEvents {
  changed(kind: ListKind): void
  /** A subscribed resource changed: its namespaced URI. */
  updated(uri: string): void
  called(record: ToolCallRecord): void
  warn(message: string): void
}

const refused = (what: string) => new McpError(ErrorCode.InvalidParams, what)
const allKinds: ListKind[] = ['tools', 'resources', 'prompts']

/**
 * The operator's MCP servers as one: lists merged under each server's name, every call checked against
 * the caller's access and bounded (timeout, result size, concurrency per key and per server, rate per key).
 */
export class Gateway {
  readonly servers = new Map<string, UpstreamServer>()
  readonly logs = new LogRelay()
  readonly clientRequests = new ClientRequests()
  /** The requests sent to 2025 sessions' clients, waiting for the answers they POST. */
  readonly answers: ClientAnswers
  /** The calls of 2026-07-28 clients whose servers asked them something, running across their retries. */
  readonly inputRounds = new InputRounds()
  private readonly keySlots = new Map<string, Semaphore>()
  private readonly rate: CallRate

  constructor(private settings: McpGatewaySettings, private readonly events: GatewayEvents, fleet?: Fleet) {
    this.rate = new CallRate(fleet)
    this.answers = new ClientAnswers(fleet)
  }

  /** Start new servers, restart changed ones, stop removed ones; unchanged ones keep their connection. */
  apply(configs: McpServerConfig[], settings: McpGatewaySettings): void {
    // Open sessions hear of every list this changes: servers gone or restarted, tools disabled, access changed.
    const changed = new Set<ListKind>(accessChanged(this.settings, settings) ? allKinds : [])
    this.settings = settings
    const wanted = new Map(configs.filter(config => !config.disabled).map(config => [config.name, config]))
    const replaced = new Map<string, UpstreamServer>()
    for (const [name, server] of this.servers) {
      const next = wanted.get(name)
      if (next && sameStart(next, server.config)) {
        if (JSON.stringify(next['disabled-tools'] ?? []) !== JSON.stringify(server.config['disabled-tools'] ?? [])) changed.add('tools')
        server.config = next
        server.slots.limit = next['max-concurrent'] ?? defaultServerConcurrency
        continue
      }
      if (next) replaced.set(name, server)
      this.servers.delete(name)
      void server.close()
      for (const kind of allKinds) changed.add(kind)
    }
    for (const kind of changed) this.events.changed(kind)
    for (const [name, config] of wanted) {
      if (this.servers.has(name)) continue
      const server = new UpstreamServer(config, {
        changed: kind => this.events.changed(kind),
        log: params => this.logs.relay(name, params, server.logsShared),
        updated: uri => this.events.updated(namespacedUri(name, uri)),
        warn: this.events.warn,
        request: (method, params, signal) => this.clientRequests.forward(name, method, params, signal),
        maxLineBytes: () => lineLimit(this.settings['max-result-kb']),
      })
      const previous = replaced.get(name)
      if (previous) server.takeOver(previous)
      this.servers.set(name, server)
      server.start()
    }
  }

  toolEnabled(server: UpstreamServer, tool: string): boolean {
    return !isExcluded(server.config['disabled-tools'] ?? [], tool)
  }

  listTools(access: KeyAccess): Tool[] {
    const tools: Tool[] = []
    for (const server of this.servers.values()) {
      if (server.state !== 'up' || !access.server(server.name)) continue
      for (const tool of server.lists.tools) {
        const name = namespaced(server.name, tool.name)
        if (this.toolEnabled(server, tool.name) && access.tool(server.name, name)) tools.push({ ...tool, name, title: tool.title ?? tool.name })
      }
    }
    return tools
  }

  listPrompts(access: KeyAccess): Prompt[] {
    return this.visible(access).flatMap(server => server.lists.prompts.map(prompt => ({ ...prompt, name: namespaced(server.name, prompt.name) })))
  }

  listResources(access: KeyAccess): Resource[] {
    return this.visible(access).flatMap(server => server.lists.resources.map(resource => ({ ...resource, uri: namespacedUri(server.name, resource.uri) })))
  }

  listResourceTemplates(access: KeyAccess): ResourceTemplate[] {
    return this.visible(access).flatMap(server => server.lists.templates.map(template => ({ ...template, uriTemplate: namespacedUri(server.name, template.uriTemplate) })))
  }

  private visible(access: KeyAccess): UpstreamServer[] {
    return [...this.servers.values()].filter(server => server.state === 'up' && access.server(server.name))
  }

  /** The server a namespaced name belongs to, if the caller may use it. */
  private serverFor(access: KeyAccess, server: string | undefined, what: string): UpstreamServer {
    const found = server === undefined ? undefined : this.servers.get(server)
    if (!found || !access.server(found.name)) throw refused(`unknown ${what}`)
    return found
  }

  async callTool(context: CallContext, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const split = splitName(name)
    const startedAt = Date.now()
    const record = (outcome: ToolCallRecord['outcome'], extra: Partial<ToolCallRecord>) => this.events.called({
      server: split?.server ?? '', tool: split?.name ?? name, keyId: context.keyId, arguments: args, startedAt, durationMs: Date.now() - startedAt, outcome, ...extra,
    })
    const server = split && this.servers.get(split.server)
    if (!split || !server || !server.lists.tools.some(tool => tool.name === split.name) || !this.toolEnabled(server, split.name) || !context.access.tool(split.server, name)) {
      record('refused', { error: 'unknown or not allowed' })
      throw refused(`unknown tool: ${name}`)
    }
    const limit = context.access.callsPerMinute
    if (limit !== undefined && !await this.rate.take(context.keyId, limit)) {
      record('refused', { error: 'rate' })
      throw new McpError(ErrorCode.InvalidRequest, `tool call rate of this key exceeded (${limit} a minute): try again shortly`)
    }
    const timeoutMs = (server.config['timeout-seconds'] ?? this.settings['call-timeout-seconds']) * 1000
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout
    let slots = this.keySlots.get(context.keyId)
    if (!slots) this.keySlots.set(context.keyId, slots = new Semaphore(this.settings['max-concurrent-per-key']))
    slots.limit = this.settings['max-concurrent-per-key']
    let releaseKey: (() => void) | undefined
    let releaseServer: (() => void) | undefined
    try {
      releaseKey = await slots.acquire(signal)
      releaseServer = await server.slots.acquire(signal)
      const client = server.connected()
      const tool = server.lists.tools.find(listed => listed.name === split.name)
      // A server may quote its token, headers or env in a result or a progress notice: masked before the client and the recorder see it.
      const result = server.maskResult(await this.logged(server, context, signal, logLevel => client.callTool({ name: split.name, arguments: args }, { signal, timeout: timeoutMs, onprogress: context.onprogress && (progress => context.onprogress!(server.maskResult(progress))), tool, logLevel })))
      const bytes = Buffer.byteLength(JSON.stringify(result))
      const max = this.settings['max-result-kb'] * 1024
      if (bytes > max) {
        record('error', { resultBytes: bytes, error: `result of ${bytes} bytes over the cap of ${max}` })
        return { isError: true, content: [{ type: 'text', text: `the result of ${name} (${bytes} bytes) is larger than the gateway allows (${max} bytes)` }] }
      }
      record(result.isError ? 'tool_error' : 'ok', { resultBytes: bytes, result })
      return result
    } catch (error) {
      const timedOut = timeout.aborted
      const message = timedOut ? `${name} did not answer within ${timeoutMs / 1000} s` : server.mask((error as Error).message)
      record(timedOut ? 'timeout' : 'error', { error: message })
      // The call ran and failed (timeout, server gone, its own error): a tool error the model can read.
      return { isError: true, content: [{ type: 'text', text: `MCP server ${server.name}: ${message}` }] }
    } finally {
      releaseServer?.()
      releaseKey?.()
    }
  }

  async getPrompt(access: KeyAccess, name: string, args: Record<string, string> | undefined, signal?: AbortSignal, attend?: Attended) {
    const split = splitName(name)
    const server = this.serverFor(access, split?.server, `prompt: ${name}`)
    return this.bounded(server, signal, attend, (client, options) => client.getPrompt({ name: split!.name, arguments: args }, options))
  }

  async readResource(access: KeyAccess, uri: string, signal?: AbortSignal, attend?: Attended) {
    const split = splitUri(uri)
    const server = this.serverFor(access, split?.server, `resource: ${uri}`)
    const result = await this.bounded(server, signal, attend, (client, options) => client.readResource({ uri: split!.uri }, options))
    const bytes = Buffer.byteLength(JSON.stringify(result))
    if (bytes > this.settings['max-result-kb'] * 1024) throw new McpError(ErrorCode.InternalError, `resource ${uri} (${bytes} bytes) is larger than the gateway allows`)
    return { ...result, contents: result.contents.map(content => ({ ...content, uri: namespacedUri(server.name, content.uri) })) }
  }

  /** `resources/subscribe` forwarded to the resource's server: its answer, error included, is the caller's. */
  async subscribe(access: KeyAccess, uri: string, signal?: AbortSignal): Promise<void> {
    const split = splitUri(uri)
    const server = this.serverFor(access, split?.server, `resource: ${uri}`)
    await this.bounded(server, signal, undefined, (_client, options) => server.subscribe(split!.uri, options))
  }

  /** Throws the refusal for a resource the caller may not use (or that names no server). */
  assertResource(access: KeyAccess, uri: string): void {
    this.serverFor(access, splitUri(uri)?.server, `resource: ${uri}`)
  }

  /** Ends a subscription on the resource's server, once no client holds it (access was checked when it was made). */
  async unsubscribe(uri: string, signal?: AbortSignal): Promise<void> {
    const split = splitUri(uri)
    const server = split && this.servers.get(split.server)
    if (server) await this.bounded(server, signal, undefined, (_client, options) => server.unsubscribe(split.uri, options))
  }

  /** Argument completion for a namespaced prompt or resource template, asked of its server. */
  async complete(access: KeyAccess, params: { ref: { type: string; name?: string; uri?: string }; argument: { name: string; value: string }; context?: { arguments?: Record<string, string> } }, signal?: AbortSignal, attend?: Attended) {
    const { ref } = params
    const split = ref.type === 'ref/prompt' ? splitName(ref.name ?? '') : splitUri(ref.uri ?? '')
    const server = this.serverFor(access, split?.server, `${ref.type === 'ref/prompt' ? 'prompt' : 'resource'}: ${ref.name ?? ref.uri}`)
    const own = ref.type === 'ref/prompt' ? { type: 'ref/prompt' as const, name: (split as { name: string }).name } : { type: 'ref/resource' as const, uri: (split as { uri: string }).uri }
    if (!server.connected().capabilities()?.completions) return { completion: { values: [], hasMore: false } }
    return this.bounded(server, signal, attend, (client, options) => client.complete({ ...params, ref: own }, options))
  }

  /**
   * `logging/setLevel` of a 2025 session: every server the caller may use that logs is asked for that
   * level at least (every server, without `access`: a session's level told by another instance).
   */
  async setLogLevel(access: KeyAccess | undefined, level: LoggingLevel): Promise<void> {
    const servers = access ? this.visible(access) : [...this.servers.values()]
    await Promise.all(servers.map(server => server.wantLevel(level)))
  }

  /** Runs a request on `server`; meanwhile the caller hears the server's log notices (if it asked) and its requests to the client. */
  private async logged<T>(server: UpstreamServer, attend: Attended | undefined, signal: AbortSignal, run: (logLevel: LoggingLevel | undefined) => Promise<T>): Promise<T> {
    const { log } = attend ?? {}
    // The client's answers are bounded like the call: its timeout, its cancellation.
    const own = attend?.client ?? unattended()
    const client = { ...own, signal: AbortSignal.any([own.signal, signal]) }
    const level = log?.level()
    if (!log || !level) return this.clientRequests.during(server.name, client, () => run(undefined))
    await server.wantLevel(level)
    const done = this.logs.during(server.name, log)
    try {
      return await this.clientRequests.during(server.name, client, () => run(level))
    } finally {
      done()
    }
  }

  private async bounded<T>(server: UpstreamServer, signal: AbortSignal | undefined, attend: Attended | undefined, run: (client: ReturnType<UpstreamServer['connected']>, options: { signal: AbortSignal; timeout: number; logLevel?: LoggingLevel }) => Promise<T>): Promise<T> {
    const timeoutMs = (server.config['timeout-seconds'] ?? this.settings['call-timeout-seconds']) * 1000
    const both = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs)
    try {
      return server.maskResult(await this.logged(server, attend, both, logLevel => run(server.connected(), { signal: both, timeout: timeoutMs, logLevel })))
    } catch (error) {
      if (error instanceof McpError) {
        error.message = server.mask(error.message)
        throw error
      }
      throw new McpError(ErrorCode.InternalError, `MCP server ${server.name}: ${server.mask((error as Error).message)}`)
    }
  }

  async close(): Promise<void> {
    this.answers.dispose()
    this.inputRounds.close()
    await Promise.all([...this.servers.values()].map(server => server.close()))
    this.servers.clear()
  }
}
