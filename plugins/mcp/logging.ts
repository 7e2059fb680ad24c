import { randomUUID } from 'node:crypto'
import type { LoggingLevel, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js'
import type { Fleet } from 'model-proxy/kit/fleet'
import type { KeyAccess } from './access.ts'
import { namespaced } from './names.ts'

export type LogParams = LoggingMessageNotification['params']

/** The `_meta` key by which a request of the 2026-07-28 revision asks for log notices, and at which level. */
export const logLevelKey = 'io.modelcontextprotocol/logLevel'

const levels: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']

export const isLevel = (value: unknown): value is LoggingLevel => levels.includes(value as LoggingLevel)

/** Whether a notice of `level` passes a client's `threshold` (an unknown level passes: the server chose to send it). */
export function passes(level: string, threshold: LoggingLevel): boolean {
  const at = levels.indexOf(level as LoggingLevel)
  return at < 0 || at >= levels.indexOf(threshold)
}

/** Where one client hears log notices: the answer stream of one of its requests, or its session's GET stream. */
export interface LogSink {
  /** The 2025 session of the client: it hears a notice once. Absent: a 2026-07-28 request, a client of its own. */
  session?: string
  access(): KeyAccess
  /** The level the client asked for; none: it asked for nothing and hears nothing. */
  level(): LoggingLevel | undefined
  send(params: LogParams): void
}

/**
 * The fronted servers' log notices, relayed to the clients that asked for them, marked with the
 * server's name in `logger`. A notice names no request, so one arriving while a client's request runs
 * on its server goes in that request's answer (where the spec puts what a request causes); otherwise
 * it goes on the client's GET stream. Clients of the 2026-07-28 revision have no such stream: they
 * hear only what comes during their own requests. A notice of a connection every client shares goes
 * to the other instances too (`share`), for the streams open there.
 */
export class LogRelay {
  private readonly running = new Map<string, Set<LogSink>>()
  private readonly streams = new Set<LogSink>()
  /** Passes a shared notice, and the sessions that heard it here, to the other instances. */
  onshare?: (server: string, params: LogParams, heard: string[]) => void

  /** A client's request running on `server`, until the returned function is called. */
  during(server: string, sink: LogSink): () => void {
    let sinks = this.running.get(server)
    if (!sinks) this.running.set(server, sinks = new Set())
    sinks.add(sink)
    return () => {
      sinks.delete(sink)
      if (!sinks.size && this.running.get(server) === sinks) this.running.delete(server)
    }
  }

  /** A session's standing stream, until the returned function is called. */
  listen(sink: LogSink): () => void {
    this.streams.add(sink)
    return () => this.streams.delete(sink)
  }

  /** A notice of `server`; `shared`: of a connection with one level for every client (not a request's own). */
  relay(server: string, params: LogParams, shared = false): void {
    const heard = this.deliver(server, params, [...this.running.get(server) ?? []].reverse(), new Set())
    if (shared) this.onshare?.(server, params, [...heard])
  }

  /** A shared notice of another instance: for the streams here of the sessions that did not hear it there. */
  relayShared(server: string, params: LogParams, heard: string[]): void {
    this.deliver(server, params, [], new Set(heard))
  }

  private deliver(server: string, params: LogParams, requests: LogSink[], heard: Set<string>): Set<string> {
    const marked = { ...params, logger: params.logger ? namespaced(server, params.logger) : server }
    const offer = (sink: LogSink) => {
      if (sink.session !== undefined && heard.has(sink.session)) return
      const threshold = sink.level()
      if (!threshold || !passes(params.level, threshold) || !sink.access().server(server)) return
      if (sink.session !== undefined) heard.add(sink.session)
      try {
        sink.send(marked)
      } catch {}
    }
    // The latest request first: the likeliest cause.
    for (const sink of requests) offer(sink)
    for (const sink of this.streams) offer(sink)
    return heard
  }
}

const channel = 'mcp-log'

/** Shared notices of this instance's connections go to the other instances' streams over the fleet's channel. */
export function shareLogs(relay: LogRelay, fleet: Fleet): () => void {
  if (!fleet.shared) return () => {}
  const self = randomUUID()
  relay.onshare = (server, params, heard) => void fleet.publish(channel, JSON.stringify({ from: self, server, params, heard })).catch(() => {})
  return fleet.subscribe(channel, message => {
    try {
      const { from, server, params, heard } = JSON.parse(message) as { from: string; server: string; params: LogParams; heard: string[] }
      if (from !== self) relay.relayShared(server, params, heard)
    } catch {}
  })
}
