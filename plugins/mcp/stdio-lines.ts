import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** What is kept of a line too long to read: enough of each end to find a response's id. */
const endBytes = 256

/**
 * The longest line read from a local server: the SDK's 10 MB, or more when `max-result-kb` allows a larger
 * result (twice it, as a server may escape what JSON.stringify writes plainly), so every result the cap
 * lets through is read, and a larger one fails as over the cap.
 */
export const lineLimit = (maxResultKb: number) => Math.max(10 * 1024 * 1024, 2 * maxResultKb * 1024 + 64 * 1024)

interface Skipped { head: Buffer; tail: Buffer; bytes: number }

/**
 * A local server's stdout as JSON-RPC messages, one a line, like the SDK's reader, except for a line
 * longer than `maxBytes()`: the SDK's reader then closes the connection (the server, and every call of
 * every client running on it, at 10 MB), this one skips the line. When the line is a response (its id
 * at either end, as the SDKs write it), its request gets an error in its place, so one oversized result
 * fails one call at once, not the server.
 */
export class LineReader {
  private chunks: Buffer[] = []
  private size = 0
  private skipping?: Skipped
  private readonly ready: Array<JSONRPCMessage | Error> = []

  constructor(private readonly maxBytes: () => number) {}

  append(chunk: Buffer): void {
    let start = 0
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start)
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline)
      if (this.skipping) this.skipping.tail = lastBytes([this.skipping.tail, piece])
      else if (this.size + piece.length > this.maxBytes()) this.skipping = { head: firstBytes([...this.chunks, piece]), tail: lastBytes([...this.chunks, piece]), bytes: this.size }
      else this.chunks.push(piece)
      if (this.skipping) this.skipping.bytes += piece.length
      else this.size += piece.length
      if (newline === -1) return
      this.ready.push(this.skipping ? skippedLine(this.skipping, this.maxBytes()) : parsed(Buffer.concat(this.chunks).toString('utf8')))
      this.chunks = []
      this.size = 0
      this.skipping = undefined
      start = newline + 1
    }
  }

  /** The next message; a line that is none throws (the transport reports it and reads on). */
  readMessage(): JSONRPCMessage | null {
    const next = this.ready.shift()
    if (next instanceof Error) throw next
    return next ?? null
  }

  clear(): void {
    this.chunks = []
    this.size = 0
    this.skipping = undefined
    this.ready.length = 0
  }
}

function parsed(line: string): JSONRPCMessage | Error {
  try {
    return deserializeMessage(line.replace(/\r$/, ''))
  } catch (error) {
    return error as Error
  }
}

/** The first `endBytes` of the buffers, copying no more than that (a skipped line may hold megabytes). */
function firstBytes(buffers: Buffer[]): Buffer {
  const taken: Buffer[] = []
  for (let i = 0, size = 0; i < buffers.length && size < endBytes; size += taken[i]!.length, i++) taken.push(buffers[i]!.subarray(0, endBytes - size))
  return Buffer.concat(taken)
}

/** The last `endBytes` of the buffers, copying no more than that. */
function lastBytes(buffers: Buffer[]): Buffer {
  const taken: Buffer[] = []
  for (let i = buffers.length - 1, size = 0; i >= 0 && size < endBytes; size += taken[0]!.length, i--) taken.unshift(buffers[i]!.subarray(Math.max(0, buffers[i]!.length - (endBytes - size))))
  return Buffer.concat(taken)
}

/** The response's id of a skipped line: `{"jsonrpc":"2.0","id":N,"result"...` or `{"result":...,"jsonrpc":"2.0","id":N}`. */
function responseId(skipped: Skipped): number | undefined {
  const head = skipped.head.toString('utf8')
  const leading = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+)\s*,\s*"(?:result|error)"\s*:/.exec(head)
  if (leading) return Number(leading[1])
  if (!/^\s*\{\s*"(?:result|error)"\s*:/.test(head)) return undefined
  const trailing = /"id"\s*:\s*(\d+)\s*\}\s*$/.exec(skipped.tail.toString('utf8'))
  return trailing ? Number(trailing[1]) : undefined
}

function skippedLine(skipped: Skipped, max: number): JSONRPCMessage | Error {
  const what = `a message of ${skipped.bytes} bytes, larger than the gateway reads from a local server (${max} bytes)`
  const id = responseId(skipped)
  if (id === undefined) return new Error(`skipped ${what}`)
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: `the server answered with ${what}` } }
}
