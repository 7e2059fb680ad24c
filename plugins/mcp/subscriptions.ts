import { randomUUID } from 'node:crypto'
import type { Fleet } from 'model-proxy/kit/fleet'
import type { KeyAccess } from './access.ts'
import type { Gateway } from './gateway.ts'

const updatedChannel = 'mcp-resource-updated'
const leftChannel = 'mcp-resource-left'

/**
 * Resource subscriptions: of 2025 sessions (`resources/subscribe`), and of the `subscriptions/listen`
 * streams of the 2026-07-28 revision (`hold`). A server's connection is shared by every client, so the
 * gateway subscribes it once per resource and keeps which sessions asked; a server's
 * `notifications/resources/updated` goes to the standing stream (GET, legacy SSE) of each of them,
 * here or, over the fleet's channel, on the instance that holds it. The connection's subscription ends
 * when the last session leaves the resource (unsubscribe, or the session is closed); an unsubscribe
 * reaches every instance, whichever took the subscribe.
 */
export class ResourceSubscriptions {
  /** Sessions subscribed, by namespaced URI. */
  private readonly subscribers = new Map<string, Set<string>>()
  /** Standing streams open here, by session. */
  private readonly streams = new Map<string, Set<(uri: string) => void>>()
  private readonly unsubscribe: Array<() => void>

  constructor(private readonly gateway: Gateway, private readonly fleet: Fleet, private readonly warn: (message: string) => void) {
    const on = (channel: string, run: (session: string, uri: string) => void) => fleet.subscribe(channel, message => {
      try {
        const { session, uri } = JSON.parse(message) as { session: string; uri: string }
        run(session, uri)
      } catch {}
    })
    this.unsubscribe = [on(updatedChannel, (session, uri) => this.deliver(session, uri)), on(leftChannel, (session, uri) => this.leave(session, uri))]
  }

  async add(access: KeyAccess, session: string, uri: string, signal?: AbortSignal): Promise<void> {
    // Asked of the server each time: its answer (an unknown resource, no subscriptions) is the client's.
    await this.gateway.subscribe(access, uri, signal)
    let sessions = this.subscribers.get(uri)
    if (!sessions) this.subscribers.set(uri, sessions = new Set())
    sessions.add(session)
  }

  async remove(access: KeyAccess, session: string, uri: string, signal?: AbortSignal): Promise<void> {
    this.gateway.assertResource(access, uri)
    try {
      const sessions = this.subscribers.get(uri)
      sessions?.delete(session)
      if (sessions?.size) return
      this.subscribers.delete(uri)
      // Asked of the server here: its answer is the client's.
      await this.gateway.unsubscribe(uri, signal)
    } finally {
      void this.fleet.publish(leftChannel, JSON.stringify({ session, uri })).catch(() => {})
    }
  }

  /**
   * The resources a `subscriptions/listen` stream names, subscribed on their servers while it is open:
   * the returned function ends it. Throws the first refusal (the stream is then not opened).
   */
  async hold(access: KeyAccess, uris: string[], signal?: AbortSignal): Promise<() => void> {
    const holder = `listen:${randomUUID()}`
    try {
      for (const uri of new Set(uris)) await this.add(access, holder, uri, signal)
    } catch (error) {
      this.drop(holder)
      throw error
    }
    return () => this.drop(holder)
  }

  /** A closed session leaves every resource it subscribed to. */
  drop(session: string): void {
    for (const uri of [...this.subscribers.keys()]) this.leave(session, uri)
  }

  private leave(session: string, uri: string): void {
    const sessions = this.subscribers.get(uri)
    if (!sessions?.delete(session) || sessions.size) return
    this.subscribers.delete(uri)
    this.gateway.unsubscribe(uri).catch(error => this.warn(`MCP: could not unsubscribe from ${uri}: ${(error as Error).message}`))
  }

  /** A session's standing stream open here, until the returned function is called. */
  listen(session: string, send: (uri: string) => void): () => void {
    let sends = this.streams.get(session)
    if (!sends) this.streams.set(session, sends = new Set())
    sends.add(send)
    return () => {
      sends.delete(send)
      if (!sends.size && this.streams.get(session) === sends) this.streams.delete(session)
    }
  }

  /** A server's notice, its URI namespaced: to each subscribed session's stream. */
  updated(uri: string): void {
    for (const session of this.subscribers.get(uri) ?? []) {
      if (this.streams.has(session)) this.deliver(session, uri)
      else void this.fleet.publish(updatedChannel, JSON.stringify({ session, uri })).catch(() => {})
    }
  }

  /** On the session's newest stream: a server sends a message on one stream, never on all. */
  private deliver(session: string, uri: string): void {
    try {
      ;[...this.streams.get(session) ?? []].at(-1)?.(uri)
    } catch {}
  }

  close(): void {
    for (const off of this.unsubscribe) off()
  }
}
