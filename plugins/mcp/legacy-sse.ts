import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

const encoder = new TextEncoder()

/**
 * The legacy HTTP+SSE transport (protocol revision 2024-11-05) for older clients, on web streams: a GET
 * opens the event stream, whose first `endpoint` event names where to POST messages; answers come back
 * on the stream. The SDK's own server transport for it writes to a Node `ServerResponse` only.
 */
export class LegacySseTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  readonly response: Response
  private controller!: ReadableStreamDefaultController<Uint8Array>
  private timer?: NodeJS.Timeout
  private closed = false

  /** `keepaliveSeconds`: a comment after that many seconds, again and again (0: none). */
  constructor(private readonly endpoint: string, readonly sessionId: string, private readonly keepaliveSeconds: number) {
    const stream = new ReadableStream<Uint8Array>({
      start: controller => { this.controller = controller },
      cancel: () => { void this.close() },
    })
    this.response = new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' } })
  }

  private write(text: string): void {
    if (this.closed) return
    try {
      this.controller.enqueue(encoder.encode(text))
    } catch {
      void this.close()
    }
  }

  async start(): Promise<void> {
    this.write(`event: endpoint\ndata: ${this.endpoint}?sessionId=${encodeURIComponent(this.sessionId)}\n\n`)
    if (this.keepaliveSeconds > 0) this.timer = setInterval(() => this.write(': keep-alive\n\n'), this.keepaliveSeconds * 1000).unref()
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`)
  }

  /** A message the client POSTed for this session. */
  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    clearInterval(this.timer)
    try {
      this.controller.close()
    } catch {}
    this.onclose?.()
  }
}
