import type { Usage } from 'model-proxy'

/** A body as recorded: text (JSON as it was sent when it is JSON), cut at the size cap. */
export interface RecordedBody {
  text: string
  /** Bytes left out at the cap (absent: the body is whole). */
  truncated?: number
}

/** One stream event as it arrived: milliseconds since its hop began, and its raw text (an SSE event or a chunk). */
export interface StreamEvent { at: number; data: string }

/** A recorded stream: its events in order, with what the cap left out. */
export interface RecordedStream {
  events: StreamEvent[]
  /** Events left out at the cap. */
  omitted?: number
}

/**
 * How a record holds its bodies and streams: as text and events when it is read (the API's shape), or as
 * references into the record's byte blobs while it is stored (packed.ts).
 */
export interface Held<B = RecordedBody, S = RecordedStream> { body: B; stream: S }

/** A body as stored: blob `blob` of the packed record (its cut, if any, is the blob's). */
export interface StoredBody { blob: number }

/**
 * A stream as stored: blob `blob` holds its bytes as they passed, `chunks` where each chunk ended in it
 * and when it arrived ([end byte, ms, end byte, ms, ...]); cut into events only when read.
 */
export interface StoredStream { blob: number; chunks: number[]; sse: boolean; omitted?: number }

export type Stored = Held<StoredBody, StoredStream>

export interface RecordedMessage<H extends Held<unknown, unknown> = Held> {
  headers: Record<string, string>
  body?: H['body']
  stream?: H['stream']
}

/** One hop of one upstream attempt. */
export interface RecordedAttempt<H extends Held<unknown, unknown> = Held> {
  /** 0-based attempt number. */
  number: number
  /** Milliseconds after the request started. */
  startedAt: number
  credential: string
  family: string
  provider: string
  /** The model this attempt served (the client's, a rule's or a fallback's). */
  model: string
  upstreamModel: string
  /** The upstream request as sent (after every `before-upstream` hook). */
  request: RecordedMessage<H> & { method: string; url: string }
  /** The upstream's answer (absent: no connection). */
  response?: RecordedMessage<H> & { status: number }
  /** 0 = no connection; absent while the attempt is still running. */
  status?: number
  firstByteMs?: number
  durationMs?: number
  /** What the executor did next: done, retry, fail. */
  action?: 'done' | 'retry' | 'fail'
  /** A retry went to this model instead of asking routing (quota preview model). */
  retryWith?: string
  /** The stream died before its first event. */
  bootstrap?: boolean
  message?: string
  retryAfter?: number
  /** The credential cools down for this model until then (epoch ms), as routing decided after the attempt. */
  cooldownUntil?: number
}

/** What routing decided for the request. */
export interface RecordedRouting {
  /** The routing rule that chose the model, by name. */
  rule?: string
  /** The model the candidates serve (the client's, a rule's, a fallback's). */
  model: string
  candidates: Array<{ credential: string; family: string; provider: string; upstreamModel: string }>
  /** The model that answered when it is not the client's (rule or fallback). */
  servedModel?: string
  session?: string
  /** Times the executor waited for a cooling credential (epoch ms: from, until). */
  waits?: Array<{ at: number; until: number }>
  /** Why no credential was picked (every candidate cooling down...). */
  error?: string
}

/** The summary a list shows: everything a filter or a row needs, no body. */
export interface RecordSummary {
  id: string
  /** Epoch ms the request started. */
  time: number
  durationMs: number
  status: number
  error?: string
  /** The client's model. */
  model: string
  servedModel?: string
  keyName?: string
  /** The client key's id (`key-<hash>`, never the key). */
  clientKey?: string
  /** The client's wire format (chat, messages, responses, generate) and its path. */
  format: string
  path: string
  stream: boolean
  family?: string
  credential?: string
  /** Upstream attempts made. */
  attemptCount: number
  usage?: Usage
  /** USD, when a price is known. */
  cost?: number
  /** What translation could not carry (x-proxy-dropped). */
  dropped?: string[]
  /** The record this one replays. */
  replayOf?: string
  /** The instance that served it. */
  instance: string
}

/** One request with every hop: client request, routing, attempts (upstream request and answer), client answer. */
export interface FlightRecord<H extends Held<unknown, unknown> = Held> extends RecordSummary {
  client: {
    request: RecordedMessage<H> & { method: string; path: string }
    response: RecordedMessage<H> & { status: number }
  }
  routing?: RecordedRouting
  attempts: Array<RecordedAttempt<H>>
}

/** A record as the store keeps it: bodies and streams are references into its blobs. */
export type StoredRecord = FlightRecord<Stored>
