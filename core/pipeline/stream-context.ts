import type { Readable } from 'node:stream'
import type { Candidate, ProxyRequest, ResponseContext } from '../kernel/hooks.ts'
import type { Usage } from '../canonical/types.ts'
import { webStreamOf } from '../framing/web-stream.ts'

/**
 * The response context of a stream answer. Its `stream` is the web ReadableStream the hooks know, made
 * from the Node stream only when a hook reads it: left alone, the Node stream goes to the socket as it
 * is (srvx pipes it; a web stream costs a promise round per chunk). A hook that sets `stream` replaces
 * the answer. A class, not a literal with get/set: core/pipeline/stream-transform.ts says why.
 */
export class StreamResponseContext implements ResponseContext {
  usage?: Usage
  error?: string
  durationMs = 0
  upstreamMs?: number
  clientLeft?: boolean
  sse?: boolean
  #node: Readable
  #web: ReadableStream<Uint8Array> | undefined
  /** The answer is on its way (`before-response` is over): no web stream is made over it any more. */
  #sent = false

  constructor(
    public request: ProxyRequest,
    public candidate: Candidate | undefined,
    public status: number,
    public upstreamHeaders: Record<string, string | string[] | undefined> | undefined,
    public responseHeaders: Record<string, string>,
    node: Readable,
  ) {
    this.#node = node
  }

  /**
   * Undefined once the answer is on its way (in `after-response`, unless a hook's stream replaced it): a
   * web stream made then would read the answer as it is being sent, pause it for good, and take its bytes.
   */
  get stream(): ReadableStream<Uint8Array> | undefined {
    if (this.#sent) return this.#web
    return this.#web ??= webStreamOf(this.#node)
  }

  /** Only a web stream replaces the answer: anything else a listener assigns (a number, a string) is ignored. */
  set stream(stream: ReadableStream<Uint8Array> | undefined) {
    if (stream instanceof ReadableStream) this.#web = stream
  }

  /**
   * `before-response` is over: the web stream the hooks read or set, if they touched it (the client's
   * answer then comes from it, hooked-answer.ts). From here on no other is made.
   */
  sent(): ReadableStream<Uint8Array> | undefined {
    this.#sent = true
    return this.#web
  }
}
