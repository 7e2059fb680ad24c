import { randomUUID } from 'node:crypto'
import { ErrorCode, isJSONRPCErrorResponse, isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { Fleet } from 'model-proxy/kit/fleet'
import { rpcFailure } from './client-requests.ts'

const channel = 'mcp-client-answer'
const prefix = 'gw-'

interface Pending {
  session: string
  resolve(result: Record<string, unknown>): void
  reject(error: Error): void
}

export const isAnswer = (message: unknown): message is JSONRPCMessage & { id: string | number } => isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)

/**
 * Requests the gateway sends a 2025 session's client in the answer stream of one of its POSTs, and the
 * answers the client POSTs back. Each POST has a fresh SDK server, so the ids are the gateway's own:
 * unique across sessions, servers and instances (they name the instance that waits), and an answer is
 * taken only from the session it was asked of. An answer that lands on another instance travels there.
 */
export class ClientAnswers {
  private readonly pending = new Map<string, Pending>()
  private readonly self = randomUUID()
  private next = 0
  private readonly unsubscribe: () => void

  constructor(private readonly fleet?: Fleet) {
    this.unsubscribe = !fleet ? () => {} : fleet.subscribe(channel, text => {
      try {
        const { session, message } = JSON.parse(text) as { session: string; message: JSONRPCMessage }
        this.settle(session, message)
      } catch {}
    })
  }

  /** Sends `method` to the session's client by `write`; its answer, or the abort of `signal`. */
  request(session: string, write: (message: JSONRPCMessage) => Promise<void>, method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
    const id = `${prefix}${this.self}-${this.next++}`
    return new Promise((resolve, reject) => {
      const stop = () => {
        this.pending.delete(id)
        reject(rpcFailure(ErrorCode.RequestTimeout, `the client did not answer ${method}: ${signal.reason?.message ?? 'its request ended'}`))
      }
      if (signal.aborted) return stop()
      signal.addEventListener('abort', stop, { once: true })
      const done = () => signal.removeEventListener('abort', stop)
      this.pending.set(id, {
        session,
        resolve: result => { done(); resolve(result) },
        reject: error => { done(); reject(error) },
      })
      write({ jsonrpc: '2.0', id, method, ...(params && { params }) } as JSONRPCMessage).catch(error => {
        this.pending.delete(id)
        done()
        reject(error)
      })
    })
  }

  /** A session's client answered: false when it answers no request the gateway sent it (refused). */
  async answer(session: string, message: JSONRPCMessage & { id: string | number }): Promise<boolean> {
    const id = String(message.id)
    if (!id.startsWith(prefix)) return false
    if (id.startsWith(`${prefix}${this.self}-`)) return this.settle(session, message)
    // Another instance's request: it checks the session there.
    if (!this.fleet?.shared) return false
    await this.fleet.publish(channel, JSON.stringify({ session, message }))
    return true
  }

  private settle(session: string, message: JSONRPCMessage): boolean {
    const id = String((message as { id?: unknown }).id)
    const pending = this.pending.get(id)
    if (!pending || pending.session !== session) return false
    this.pending.delete(id)
    if (isJSONRPCErrorResponse(message)) pending.reject(rpcFailure(message.error.code, message.error.message, message.error.data))
    else if (isJSONRPCResultResponse(message)) pending.resolve(message.result as Record<string, unknown>)
    return true
  }

  /** Requests waiting for an answer (for tests: none may stay behind). */
  get waiting(): number {
    return this.pending.size
  }

  dispose(): void {
    this.unsubscribe()
    for (const pending of this.pending.values()) pending.reject(new Error('the gateway is closing'))
    this.pending.clear()
  }
}
