import type { Readable } from 'node:stream'
import type { ProxyErrorInfo } from '../canonical/codec.ts'
import type { AttemptResult } from '../kernel/hooks.ts'

/** What the client gets when an attempt (or the whole request) fails; 429s say when to come back. */
export type Failure = ProxyErrorInfo & { retryAfter?: number }

/** How one attempt ended: an answer on its way to the client, or a failure and what the hooks decided. */
export type AttemptOutcome =
  | { kind: 'answered'; response: Response }
  | { kind: 'failed'; failure: Failure; result: AttemptResult }

type UpstreamHeaders = Record<string, string | string[] | undefined>

/** What came back from the upstream, by how it was read. */
export type UpstreamReply =
  /** A stream request: the body stays a stream. */
  | { kind: 'stream'; status: number; headers: UpstreamHeaders; body: Readable & { text(): Promise<string> }; headersAt: number }
  /** A non-stream request: the body, read whole. */
  | { kind: 'buffered'; status: number; headers: UpstreamHeaders; text: string; headersAt: number }
  /** No usable answer: the connection failed, or the body broke while it was read. */
  | { kind: 'unreachable'; failure: Failure; status: number; detail?: string }
