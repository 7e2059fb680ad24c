import type { CanonicalRequest, CanonicalResponse, StreamEvent } from './types.ts'
import type { ModelInfo } from '../models/model-info.ts'

/** The formats built in. Payload-rule protocol names: chat=proto_chat, generate=proto_alpha, messages=proto_beta, responses=proto_gamma. */
export type BuiltinWireFormat = 'chat' | 'responses' | 'messages' | 'generate'

/** A wire format's name: a built-in one, or any name a plugin's codec registers (`defineCodec({ format: 'ollama' })`). */
export type WireFormat = BuiltinWireFormat | (string & {})

/**
 * One frame of an upstream stream. SSE: one event (`event:` may be absent). NDJSON: one line. JSON
 * array: one element's JSON text. `data` is always the frame's text, never parsed.
 */
export interface StreamFrame { event?: string; data: string }

/** One parsed Server-Sent Event: the SSE case of a StreamFrame. */
export type SseEvent = StreamFrame

/** How an upstream frames its stream: `sse` (the default), newline-delimited JSON, or one JSON array. */
export type StreamFraming = 'sse' | 'ndjson' | 'json-array'

/** What a client or upstream error means, independent of format. */
export interface ProxyErrorInfo {
  status: number
  message: string
  /** OpenAI-style type (`invalid_request_error`, `authentication_error`, `rate_limit_error`, `api_error`...). */
  type?: string
  code?: string
  /** The request field at fault (`input[3].role`), for the formats whose errors name one (chat, responses). */
  param?: string
}

/** Stateful per request: feed upstream frames in (as the codec's `stream.framing` cuts them), get canonical events out. */
export interface StreamDecoder {
  push(frame: StreamFrame): StreamEvent[]
  /** Upstream ended: returns the closing events (a `finish` if none was produced yet). */
  end(): StreamEvent[]
  /**
   * Whether the format's terminal event has come (`[DONE]`, `message_stop`, `response.completed`, a
   * finish reason, an error event). A stream that ends without it was cut: the client is told so, never
   * given a normal finish. A decoder without it cannot tell: its streams count as whole.
   */
  terminated?(): boolean
  /**
   * Whether nothing more belongs to the answer: its last event has come (chat's `[DONE]`, `message_stop`,
   * the final response, an error event). Not `terminated`: a finish reason turns that true while chat's
   * usage chunk may still follow. The proxy ends the client's answer here and lets the upstream go, even
   * when the upstream keeps its connection open. A decoder without it (generateContent, whose last
   * chunk is known only by the stream's end) is read until the upstream ends.
   */
  complete?(): boolean
}

/**
 * A format whose streams report usage only when asked (chat: `stream_options.include_usage`): a
 * same-format stream asks the upstream for it, and the frame the client did not ask for is dropped.
 */
export interface StreamUsageOption {
  /** The top-level request field that asks. */
  field: string
  /** Whether the client asked, from the field's value. */
  asked(value: unknown): boolean
  /** The field's value that asks, from what the client sent there (undefined: nothing). */
  ask(value: unknown): unknown
  /** Whether a frame is the usage-only frame a client that did not ask must not see. */
  usageOnly(frame: StreamFrame): boolean
}

/** Stateful per request: feed canonical events in, get wire text out (complete SSE frames or JSON-stream pieces). */
export interface StreamEncoder {
  push(event: StreamEvent): string
  /** Closing text (e.g. `data: [DONE]\n\n`, or `]` for a JSON-array stream). */
  end(): string
}

export interface StreamEncoderOptions {
  /** Model name reported to the client (the one it asked for). */
  model: string
  /** generate format only: false = JSON-array stream (no `alt=sse`). */
  sse?: boolean
  /** chat format only: the client asked for the closing usage chunk (`stream_options.include_usage`). */
  includeUsage?: boolean
}

/** One model as a listing shows it: the name clients use, who serves it, the catalog's limits when known. */
export interface ListedModel { id: string; ownedBy: string; created: number; info?: ModelInfo }

/** The format's model listing (`GET .../models`, `GET .../models/{id}`). */
export interface ModelListShape {
  /**
   * The list, or the page of it the request's query asks for when the format's listing pages (its own
   * paging parameters; a bad one throws a 400 `ProxyError`). `models` is sorted by id (`compareModelIds`).
   */
  list(models: ListedModel[], query: URLSearchParams): Record<string, unknown>
  entry(model: ListedModel): Record<string, unknown>
}

export interface WireCodec {
  format: WireFormat
  /**
   * Where a request names its model: `body` (a top-level `model` field, the default) or `url` (the path,
   * as generateContent does). A `url` format's body is sent with no `model` added, and the client's own
   * bytes may go upstream even when a `"model"` string appears twice in them.
   */
  modelIn?: 'body' | 'url'
  /**
   * Answer fields (top level, and in stream events) that echo the model: rewritten to the name the
   * client asked for when an alias or pool sent another upstream. Default `['model']`.
   */
  modelEcho?: string[]
  /** How the format's SDKs expect a model list and one model (formats without their own listing have none). */
  models?: ModelListShape
  request: {
    /** Throws `RequestValidationError` (core/canonical/errors.ts) for invalid input; never anything else. */
    decode(body: unknown): CanonicalRequest
    encode(request: CanonicalRequest): Record<string, unknown>
  }
  response: {
    decode(body: unknown): CanonicalResponse
    encode(response: CanonicalResponse): Record<string, unknown>
  }
  stream: {
    /** How this format's upstreams frame a stream (default `sse`): the decoder is fed frames cut that way. */
    framing?: StreamFraming
    createDecoder(): StreamDecoder
    /** How a client asks for a stream's usage, when that is optional in this format. */
    usageOption?: StreamUsageOption
    createEncoder(options: StreamEncoderOptions): StreamEncoder
  }
  error: {
    /** Client-facing error body of this format. */
    encode(error: ProxyErrorInfo): Record<string, unknown>
    /** Upstream error body (any JSON or text) of this format into a ProxyErrorInfo. */
    decode(status: number, body: unknown): ProxyErrorInfo
    /**
     * The HTTP status an error of this format stands for, read from the format's own names: the `error`
     * object of a whole body sent with a 200 (relays and gateways send them). Without it such a body fails
     * as a 502. A stream's error event carries the status its decoder gives.
     */
    status?(error: object): number
    /**
     * The error as this format's clients expect it, for a status their vendor never sends (the messages
     * API's 529 overloaded toward an OpenAI-format client: its 503). Applied to every error the client
     * gets in this format, before `encode`; default: as it is.
     */
    forClient?(error: ProxyErrorInfo): ProxyErrorInfo
  }
}

export function defineCodec<T extends WireCodec>(codec: T): T {
  return codec
}
