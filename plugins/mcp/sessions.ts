import { hash, randomUUID } from 'node:crypto'
import type { Storage } from 'unstorage'
import type { Fleet } from 'model-proxy/kit/fleet'
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/sdk/types.js'
import { isLevel } from './logging.ts'

/** A session lives a day past its last use. */
const sessionTtlSeconds = 24 * 3600
const storageKey = (id: string) => `mcp:session:${id}`
const cancelChannel = 'mcp-cancel'
const closedChannel = 'mcp-session-closed'
const levelChannel = 'mcp-session-log-level'

/**
 * `logLevel`: what the session asked by `logging/setLevel` (none: it hears no log notices).
 * `capabilities`: what its client declared at `initialize` it answers (elicitation, sampling, roots).
 */
interface SessionRecord { key: string; created: number; logLevel?: LoggingLevel; capabilities?: Pick<ClientCapabilities, 'elicitation' | 'sampling' | 'roots'> }
/** A session's life in the storage is renewed on use, at most this often per instance. */
const renewEveryMs = 10 * 60_000
/** Sessions remembered in memory (the storage holds them all): the oldest go first. */
const rememberedMax = 10_000

/** The key a session is bound to, as a hash (the key itself is never stored). */
const keyHashOf = (key: string | undefined) => hash('sha256', key ?? '', 'hex')

/**
 * Gateway sessions. The MCP exchange itself holds no state between HTTP requests (each one gets a fresh
 * SDK server); what makes a session is its id, bound to the client key that opened it, kept in the
 * storage: with Redis, every instance knows every session, so a client's requests may land anywhere.
 * Cancellations travel over the fleet's channel to the instance running the call.
 */
export class Sessions {
  private readonly known = new Map<string, SessionRecord>()
  private readonly renewed = new Map<string, number>()
  private readonly running = new Map<string, AbortController>()
  private readonly unsubscribe: Array<() => void>
  /** Told when a session is closed, here or on another instance. */
  onclosed?: (id: string) => void
  /** Told when a session asks for a log level, here or on another instance. */
  onlevel?: (level: LoggingLevel) => void

  constructor(private readonly storage: Storage, private readonly fleet: Fleet) {
    this.unsubscribe = [
      fleet.subscribe(cancelChannel, message => {
        try {
          const { session, id } = JSON.parse(message) as { session: string; id: string | number }
          this.running.get(`${session}:${id}`)?.abort(new Error('cancelled by the client'))
        } catch {}
      }),
      fleet.subscribe(closedChannel, id => this.#ended(id)),
      // The session's GET stream may be open on another instance than the one that got `logging/setLevel`.
      fleet.subscribe(levelChannel, message => {
        try {
          const { id, level } = JSON.parse(message) as { id: string; level: unknown }
          if (!isLevel(level)) return
          const record = this.known.get(id)
          if (record) record.logLevel = level
          this.onlevel?.(level)
        } catch {}
      }),
    ]
  }

  async open(key: string | undefined, declared?: ClientCapabilities): Promise<string> {
    const id = randomUUID()
    const { elicitation, sampling, roots } = declared ?? {}
    const record: SessionRecord = { key: keyHashOf(key), created: Date.now(), capabilities: { elicitation, sampling, roots } }
    this.remember(id, record)
    await this.storage.setItem(storageKey(id), record, { ttl: sessionTtlSeconds })
    return id
  }

  /** Whether the session exists and belongs to this key (a session of another key is unknown). */
  async valid(id: string, key: string | undefined): Promise<boolean> {
    let record = this.known.get(id)
    if (!record) {
      record = await this.storage.getItem<SessionRecord>(storageKey(id)).catch(() => null) ?? undefined
      if (record) this.remember(id, record)
    }
    if (!record || record.key !== keyHashOf(key)) return false
    const now = Date.now()
    if (now - (this.renewed.get(id) ?? record.created) > renewEveryMs) {
      this.renewed.set(id, now)
      void this.storage.setItem(storageKey(id), record, { ttl: sessionTtlSeconds }).catch(() => {})
    }
    return true
  }

  private remember(id: string, record: SessionRecord): void {
    if (this.known.size >= rememberedMax) {
      const oldest = this.known.keys().next().value!
      this.known.delete(oldest)
      this.renewed.delete(oldest)
    }
    this.known.set(id, record)
  }

  /** The log level a session asked for, as this instance knows it (the session was checked by `valid` first). */
  level(id: string): LoggingLevel | undefined {
    return this.known.get(id)?.logLevel
  }

  /** What the session's client declared it answers (the session was checked by `valid` first). */
  capabilities(id: string): ClientCapabilities | undefined {
    return this.known.get(id)?.capabilities
  }

  async setLevel(id: string, level: LoggingLevel): Promise<void> {
    const record = this.known.get(id)
    if (!record) return
    record.logLevel = level
    await this.storage.setItem(storageKey(id), record, { ttl: sessionTtlSeconds }).catch(() => {})
    await this.fleet.publish(levelChannel, JSON.stringify({ id, level })).catch(() => {})
  }

  async close(id: string): Promise<void> {
    this.#ended(id)
    await this.storage.removeItem(storageKey(id))
    await this.fleet.publish(closedChannel, id).catch(() => {})
  }

  /** A session ended (here or on another instance): forgotten, and its requests running here stopped. */
  #ended(id: string): void {
    this.known.delete(id)
    this.renewed.delete(id)
    for (const [name, controller] of this.running) {
      if (name.startsWith(`${id}:`)) controller.abort(new Error('the session was closed'))
    }
    this.onclosed?.(id)
  }

  /** The abort signal of a running request, registered until `done` is called. */
  track(session: string, id: string | number): { signal: AbortSignal; done(): void } {
    const name = `${session}:${id}`
    const controller = new AbortController()
    this.running.set(name, controller)
    return { signal: controller.signal, done: () => { if (this.running.get(name) === controller) this.running.delete(name) } }
  }

  /** A client's `notifications/cancelled`: abort the request here, and wherever it runs. */
  cancel(session: string, id: string | number): void {
    this.running.get(`${session}:${id}`)?.abort(new Error('cancelled by the client'))
    void this.fleet.publish(cancelChannel, JSON.stringify({ session, id })).catch(() => {})
  }

  dispose(): void {
    for (const off of this.unsubscribe) off()
    for (const controller of this.running.values()) controller.abort(new Error('the server is closing'))
  }
}
