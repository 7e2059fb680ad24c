import type { H3Event } from 'h3'
import type { CanonicalRequest, Usage } from '../canonical/types.ts'
import type { ProxyErrorInfo, WireFormat } from '../canonical/codec.ts'
import type { Credential } from '../provider/credential.ts'
import type { UpstreamHttpRequest } from '../upstream/send.ts'
import type { ProxyConfig } from '../config/schema.ts'
import type { RequestTiming } from '../pipeline/timing.ts'
import type { ClientBody } from '../json/index.ts'

/** One client request as it travels the pipeline (core/pipeline.ts). */
export interface ProxyRequest {
  id: string
  event: H3Event
  /** Wire format the client speaks. */
  inbound: WireFormat
  /** Client endpoint kind inside the format (e.g. `completions` for the legacy prompt form). */
  endpoint: string
  /** Model the client asked for (reported back to it). */
  model: string
  stream: boolean
  /**
   * The client's body, parsed, in its own wire format. Built on first read when the request came with
   * `clientBody`: read top-level fields with `requestField` where that is all a hook needs.
   */
  body: Record<string, unknown>
  /** The client's bytes, while they are what `body` means (assigning `body` drops them). */
  clientBody?: ClientBody
  /** The client's body bytes as they came, while `body` is what they parse to (assigning `body` drops them): its size, what the recorder keeps. */
  readonly clientBytes?: Buffer
  /**
   * Set by a hook that reads `body` or `clientBody` after a stream answer has started (in
   * `after-response`), at the latest in `before-response`. Otherwise, once every `before-response` hook
   * has run, a stream answer lets go of both (an agent's 80-150 KB per open stream), and reading `body`
   * then throws `BodyReleasedError`. Whole answers and failures keep the body to the end regardless.
   */
  keepBody?: boolean
  /** Filled lazily when a translation is needed. */
  canonical?: CanonicalRequest
  clientKey?: string
  startedAt: number
  /** Where the time went (set by the executor): the proxy's overhead vs. waiting for upstreams. */
  timing?: RequestTiming
  /** What the last translated attempt could not carry to its upstream format (`x-proxy-dropped`). */
  dropped?: string[]
  /**
   * A hook needs this request's token usage (limits, cost). Every answer is read for its usage now (a
   * same-format one by the usage tap, its bytes untouched), so this changes nothing; kept for plugins that set it.
   */
  needsUsage?: boolean
  /** The model that served, when routing chose another than `model` (a scenario rule or a fallback). */
  servedModel?: string
  /** The conversation this request belongs to, when routing keeps it on one credential (a short hash). */
  session?: string
}

/** One way to serve the request: a credential and the upstream model name to send. */
export interface Candidate {
  credential: Credential
  upstreamModel: string
}

export interface RouteContext {
  request: ProxyRequest
  candidates: Candidate[]
  /** The routing rule that chose the candidates' model, by name (set by the routing plugin). */
  rule?: string
  /** Set by a hook that refuses the request (a client key's rules): the client gets this error, nothing goes upstream. */
  error?: ProxyErrorInfo & { retryAfter?: number }
}

export interface PickContext {
  request: ProxyRequest
  candidates: Candidate[]
  /** Candidates already tried for this request (`candidateKey`: credential + upstream model). */
  tried: Set<string>
  /** Set by a `credential-pick` hook. */
  pick?: Candidate
  /** No pick now, but one will be ready then (epoch ms): the executor waits and asks again. */
  waitUntil?: number
  /** No pick and no wait: the error the client gets (e.g. 429 when every candidate cools down). */
  error?: ProxyErrorInfo & { retryAfter?: number }
}

export interface UpstreamContext { request: ProxyRequest; candidate: Candidate; http: UpstreamHttpRequest }

export interface AttemptResult {
  request: ProxyRequest
  candidate: Candidate
  /** Upstream status; 0 = no response (connection failed). */
  status: number
  /** 0-based number of this attempt within the request. */
  attempt: number
  /** The upstream answered 200 but its stream died before the first byte (streaming.bootstrap-retries). */
  bootstrap?: boolean
  /** Seconds from a Retry-After header, when the upstream sent one. */
  retryAfter?: number
  /** Error text from the upstream, already free of credentials (what the client may see). */
  message?: string
  /** For the operator's log only: the failure with what the client must not see (addresses, the proxy's name). */
  detail?: string
  /** What the executor does next (a default is set from the status; hooks may change it). */
  action: 'done' | 'retry' | 'fail'
  /** With `retry`: use this candidate next instead of asking `credential-pick` (e.g. the preview model). */
  retryWith?: Candidate
  /** Milliseconds from sending until the upstream's response headers (absent: no response). */
  firstByteMs?: number
  /** Failed attempts: milliseconds the whole upstream exchange took. */
  durationMs?: number
  /** The upstream's response headers, when it answered (rate-limit windows, plugins/routing/rate-limits.ts). */
  headers?: Record<string, string | string[] | undefined>
}

/** The upstream answered (any status): what came back, before it is translated. */
export interface UpstreamReplyContext {
  request: ProxyRequest
  candidate: Candidate
  /** 0-based number of this attempt within the request. */
  attempt: number
  status: number
  headers: Record<string, string | string[] | undefined>
  /** A whole body (non-stream answers, error bodies), credentials already masked. */
  text?: string
  /** Set by a listener on a stream answer: sees its chunks as they pass (read only). */
  watch?: StreamWatch
}

/** A stream's chunks as they pass: `upstream` bytes as they arrive, `client` bytes as they are sent. */
export type StreamWatch = (chunk: Uint8Array, side: 'upstream' | 'client') => void

export interface ResponseContext {
  request: ProxyRequest
  candidate?: Candidate
  status: number
  usage?: Usage
  error?: string
  /** A stream that ended with `error` after its 200 because its client went away (else the upstream, or a hook's stream, failed it). */
  clientLeft?: boolean
  durationMs: number
  /** The answering attempt: milliseconds from sending until the upstream body ended (streams: set at the end). */
  upstreamMs?: number
  /** Upstream response headers (for passthrough-headers). */
  upstreamHeaders?: Record<string, string | string[] | undefined>
  /** Headers to add to the client response (set by `before-response` hooks). */
  responseHeaders: Record<string, string>
  /** Translated non-stream answers: the body the client gets, in its format (read only). */
  answer?: Record<string, unknown>
  /** Whole answers and errors: the body text the client gets (read only). */
  answerText?: string
  /** Stream answers: the body about to be sent; `before-response` hooks may wrap it (keep-alives). */
  stream?: ReadableStream<Uint8Array>
  /** Whether the stream is SSE (false: a JSON-array stream). */
  sse?: boolean
}

/**
 * The status a request ended with, as records count it (access log, request logs, `/usage`, `/metrics`,
 * the management status, client-key usage): the client's status, except that a stream which ended with
 * an error after its 200 (its client left, or the upstream or a hook's stream broke it) counts as 499.
 */
export function endedStatus(ctx: Pick<ResponseContext, 'status' | 'error'>): number {
  return ctx.error && ctx.status < 400 ? 499 : ctx.status
}

/**
 * The kernel's lifecycle hooks. Hookable ignores return values: hooks write answers onto the context.
 * Plugins add their own with `declare module '<pkg>/core/hooks' { interface ProxyHooks { ... } }`.
 * Deciding hooks (a failure fails the request) and observer hooks (a failure is logged and ignored):
 * `observerHooks` in core/kernel/hook-bus.ts, docs/hooks.md.
 */
export interface ProxyHooks {
  /** Once per request: the model becomes candidates (credential + upstream model), or an error. */
  'route-resolve': (ctx: RouteContext) => void | Promise<void>
  /** Before every attempt: which candidate goes next, or when to ask again. */
  'credential-pick': (ctx: PickContext) => void | Promise<void>
  /** The upstream request is built: edit its URL, headers or body (payload rules, outbound proxy). */
  'before-upstream': (ctx: UpstreamContext) => void | Promise<void>
  /** After every upstream attempt: its status and timing; retry, fail over or stop (cooldowns). */
  'attempt-result': (ctx: AttemptResult) => void | Promise<void>
  /** The upstream answered; called only when someone listens (`hooks.listens`). */
  'upstream-reply': (ctx: UpstreamReplyContext) => void | Promise<void>
  /** A successful answer is about to start: last chance for headers or to wrap the stream. */
  'before-response': (ctx: ResponseContext) => void | Promise<void>
  /** The request ended, answered or failed: usage, logs, metrics, the recorder. */
  'after-response': (ctx: ResponseContext) => void | Promise<void>
  /** A new config is live (the file, the management API, another instance). */
  'config-reload': (config: ProxyConfig, previous: ProxyConfig) => void | Promise<void>
  /** The proxy shuts down or is rebuilt: flush and let go of timers and connections. */
  'close': () => void | Promise<void>
}
