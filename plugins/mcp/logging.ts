import type { LoggingLevel, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js'
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
 * hear only what comes during their own requests.
 */
export class LogRelay {
  private readonly running = new Map<string, Set<LogSink>>()
  private readonly streams = new Set<LogSink>()

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

  relay(server: string, params: LogParams): void {
    const marked = { ...params, logger: params.logger ? namespaced(server, params.logger) : server }
    const heard = new Set<string>()
    const deliver = (sink: LogSink) => {
      if (sink.session !== undefined && heard.has(sink.session)) return
      const threshold = sink.level()
      if (!threshold || !passes(params.level, threshold) || !sink.access().server(server)) return
      if (sink.session !== undefined) heard.add(sink.session)
      try {
        sink.send(marked)
      } catch {}
    }
    // The latest request first: the likeliest cause.
    for (const sink of [...this.running.get(server) ?? []].reverse()) deliver(sink)
    for (const sink of this.streams) deliver(sink)
  }
}
