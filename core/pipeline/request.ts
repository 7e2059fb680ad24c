import type { H3Event } from 'h3'
import type { WireFormat } from '../canonical/codec.ts'
import type { ProxyRequest } from '../hooks.ts'
import { ProxyError } from '../http/errors.ts'

export interface RequestInit {
  inbound: WireFormat
  endpoint: string
  body: Record<string, unknown>
  /** Defaults to `body.model`; generateContent passes the model from its URL. */
  model?: unknown
  stream?: boolean
  clientKey?: string
}

/** A ProxyRequest from a parsed body: every format needs a model name (spec: 400 invalid_request_error). */
export function createProxyRequest(event: H3Event, init: RequestInit): ProxyRequest {
  const model = init.model ?? init.body.model
  if (typeof model !== 'string' || !model) throw new ProxyError(400, 'you must provide a model parameter', 'invalid_request_error', 'missing_model')
  // Same-format bodies go upstream untouched: a truthy non-boolean `stream` would make the upstream stream
  // while we wait for JSON. Every format's API refuses it; so do we.
  const stream = init.body.stream
  if (init.stream === undefined && stream !== undefined && stream !== null && typeof stream !== 'boolean') throw new ProxyError(400, 'stream must be a boolean', 'invalid_request_error', 'invalid_stream')
  return {
    id: (event.context.requestId as string | undefined) ?? crypto.randomUUID(),
    event,
    inbound: init.inbound,
    endpoint: init.endpoint,
    model,
    stream: init.stream ?? init.body.stream === true,
    body: init.body,
    clientKey: init.clientKey,
    startedAt: Date.now(),
  }
}
