import type { H3Event } from 'h3'
import type { WireFormat } from '../canonical/codec.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { ClientBody } from '../json/index.ts'

export interface RequestInit {
  inbound: WireFormat
  endpoint: string
  /** The parsed body, or the client's bytes to parse only when something reads the whole (`readClientBody`). */
  body: Record<string, unknown> | ClientBody
  /** Defaults to `body.model`; generateContent passes the model from its URL. */
  model?: unknown
  stream?: boolean
  clientKey?: string
  /** The client's bytes when `body` is their parse (a route that parsed them itself). */
  clientBytes?: Buffer
}

/**
 * A top-level field of the client's body: read from its bytes while the whole is not built, so routing
 * and hooks that need a field or two never parse an agent's 150 KB history.
 */
export function requestField(request: Pick<ProxyRequest, 'body' | 'clientBody'>, key: string): unknown {
  return request.clientBody ? request.clientBody.field(key) : request.body[key]
}

/** A ProxyRequest from a body: every format needs a model name (spec: 400 invalid_request_error). */
export function createProxyRequest(event: H3Event, init: RequestInit): ProxyRequest {
  const clientBody = init.body instanceof ClientBody ? init.body : undefined
  const read = (key: string) => clientBody ? clientBody.field(key) : (init.body as Record<string, unknown>)[key]
  const model = init.model ?? read('model')
  if (typeof model !== 'string' || !model) throw new ProxyError(400, 'you must provide a model parameter', 'invalid_request_error', 'missing_model')
  // Same-format bodies go upstream untouched: a truthy non-boolean `stream` would make the upstream stream
  // while we wait for JSON. Every format's API refuses it; so do we.
  const stream = init.stream === undefined ? read('stream') : undefined
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') throw new ProxyError(400, 'stream must be a boolean', 'invalid_request_error', 'invalid_stream')
  return new PipelineRequest(event, init, model, init.stream ?? stream === true, clientBody)
}

/**
 * A stream answer has started: no attempt will be built again, so the request lets go of its parsed
 * body and canonical form (an agent's 150 KB history as objects, held for as long as the stream runs).
 * Held, they outlived young collections and were promoted with every translated agent request (172 KB
 * each; docs/benchmarks.md). A hook that reads `request.body` afterwards gets the client's body parsed
 * again from its bytes. A body a hook replaced (`request.body = ...`) is kept.
 */
export function releaseParsedBody(request: ProxyRequest): void {
  if (request instanceof PipelineRequest) request.releaseParsed()
}

/** Reading `request.body` after a stream answer let it go (`ProxyRequest.keepBody` says when it is kept). */
export class BodyReleasedError extends Error {
  constructor() {
    super('the request body was let go when its stream answer started: a hook that reads it later sets request.keepBody = true before then')
    this.name = 'BodyReleasedError'
  }
}

/**
 * A stream answer has started and every `before-response` hook has run: unless a hook asked to keep it
 * (`request.keepBody`), the request lets go of the client's body, its bytes too (an agent's 80-150 KB,
 * otherwise held for as long as the stream runs: the whole gap to a bare proxy's memory, same format).
 * Reading `body` afterwards throws BodyReleasedError; its size is known before (usage-estimate.ts).
 */
export function releaseBody(request: ProxyRequest): void {
  if (request instanceof PipelineRequest && !request.keepBody) request.release()
}

/**
 * The request as the pipeline carries it. A class with `body` on its prototype, not an object literal
 * with `get body()`/`set body()` closures: V8's young collections keep such a literal's accessors, and
 * through their closures the whole request, alive until a full collection (measured: whole requests
 * promoted; docs/benchmarks.md, "What outlives a young collection").
 */
class PipelineRequest implements ProxyRequest {
  [state: symbol]: unknown
  readonly id: string
  readonly inbound: WireFormat
  readonly endpoint: string
  readonly clientKey: string | undefined
  readonly startedAt = Date.now()
  canonical: ProxyRequest['canonical'] = undefined
  timing: ProxyRequest['timing'] = undefined
  dropped: string[] | undefined = undefined
  needsUsage: boolean | undefined = undefined
  servedModel: string | undefined = undefined
  session: string | undefined = undefined
  keepBody: boolean | undefined = undefined
  #body: Record<string, unknown> | undefined
  #clientBytes: Buffer | undefined

  constructor(readonly event: H3Event, init: RequestInit, public model: string, public stream: boolean, public clientBody: ClientBody | undefined) {
    this.id = event.context.requestId ?? crypto.randomUUID()
    this.inbound = init.inbound
    this.endpoint = init.endpoint
    this.clientKey = init.clientKey
    this.#body = clientBody ? undefined : init.body as Record<string, unknown>
    this.#clientBytes = clientBody ? undefined : init.clientBytes
  }

  get clientBytes(): Buffer | undefined {
    return this.clientBody?.bytes ?? this.#clientBytes
  }

  /** See releaseParsedBody. */
  releaseParsed(): void {
    this.canonical = undefined
    if (!this.clientBody) return
    this.#body = undefined
    this.clientBody.release()
  }

  /** See releaseBody. */
  release(): void {
    this.canonical = undefined
    this.#body = undefined
    this.clientBody = undefined
    this.#clientBytes = undefined
  }

  get body(): Record<string, unknown> {
    if (this.#body) return this.#body
    // Neither a value nor the client's bytes: only `release` leaves a request so.
    if (!this.clientBody) throw new BodyReleasedError()
    return this.#body = this.clientBody.object()
  }

  set body(value: Record<string, unknown>) {
    this.#body = value
    this.clientBody = undefined
    this.#clientBytes = undefined
  }
}
