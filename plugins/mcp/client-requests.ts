import { AsyncLocalStorage } from 'node:async_hooks'
import { ErrorCode, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js'
import type { KeyAccess } from './access.ts'

/** The requests a server may send its client, and what each needs the client to have declared. */
export const clientMethods = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const
export type ClientMethod = typeof clientMethods[number]

export const isClientMethod = (method: string): method is ClientMethod => (clientMethods as readonly string[]).includes(method)

/** One request of a client that runs on a server: where that server's requests to its client go. */
export interface ClientChannel {
  /** The client: its 2025 session, or (absent) this request alone. Two channels of one client are one client. */
  session?: string
  access(): KeyAccess
  /** What the client declared in its `initialize` (or its request's `_meta`). */
  capabilities(): ClientCapabilities | undefined
  /** Sends the request to the client in its transport's way; the answer's result, or its error. */
  request(method: ClientMethod, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>>
  /** Aborted when the client's request ends (answered, timed out, disconnected). */
  signal: AbortSignal
}

/** Whether the client declared what `method` (with these params) needs. */
export function declares(capabilities: ClientCapabilities | undefined, method: ClientMethod, params: Record<string, unknown> | undefined): boolean {
  if (method === 'roots/list') return capabilities?.roots !== undefined
  if (method === 'sampling/createMessage') return capabilities?.sampling !== undefined && (params?.tools === undefined || capabilities.sampling.tools !== undefined)
  const elicitation = capabilities?.elicitation as { form?: object; url?: object } | undefined
  if (!elicitation) return false
  // An empty `elicitation` is form mode (the 2025-06-18 meaning).
  return params?.mode === 'url' ? elicitation.url !== undefined : elicitation.form !== undefined || elicitation.url === undefined
}

interface Running { server: string; channel: ClientChannel }

/**
 * A request with no client to ask (the proxy's own tool loop, a subscription): it still owns the
 * requests its server sends meanwhile, which get what a client without the capabilities answers.
 */
export function unattended(): ClientChannel {
  return {
    access: () => ({ name: '*', server: () => true, tool: () => false }),
    capabilities: () => undefined,
    request: async method => { throw rpcFailure(ErrorCode.MethodNotFound, `Method not found: ${method}`) },
    signal: new AbortController().signal,
  }
}

/** A JSON-RPC error for the server as is: the SDKs answer a handler's throw with its `code`, `message` and `data` (McpError would prefix the message). */
export const rpcFailure = (code: number, message: string, data?: unknown) => Object.assign(new Error(message), { code, data })
const noClient = (method: string) => rpcFailure(ErrorCode.InvalidRequest, `no client is waiting: ${method} is forwarded only while a client's request runs on this server`)

/**
 * Requests of the fronted servers to their client (elicitation, sampling, roots), forwarded to the
 * gateway client whose request they belong to. The connection to a server is shared by every client, so
 * which request caused one is found: exactly, when it arrives in the asynchronous context of the call
 * that caused it (a server over Streamable HTTP sends it in that call's answer stream); else as the one
 * client whose request runs on that server (stdio, legacy SSE: nothing in the message names the call).
 * Several clients there at once: refused, rather than shown to a client it may not concern.
 */
export class ClientRequests {
  private readonly running = new Map<string, Set<ClientChannel>>()
  private readonly context = new AsyncLocalStorage<Running>()

  /** Runs a client's request on `server`: that server's requests to its client meanwhile go to `channel`. */
  async during<T>(server: string, channel: ClientChannel, run: () => Promise<T>): Promise<T> {
    let channels = this.running.get(server)
    if (!channels) this.running.set(server, channels = new Set())
    channels.add(channel)
    try {
      return await this.context.run({ server, channel }, run)
    } finally {
      channels.delete(channel)
      if (!channels.size && this.running.get(server) === channels) this.running.delete(server)
    }
  }

  /** A request of `server` to its client: the answer of the client it belongs to, or the error why none. */
  async forward(server: string, method: ClientMethod, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
    const channel = this.channelFor(server)
    if (!channel) {
      // Roots outside a client's request: the gateway has no roots of its own.
      if (method === 'roots/list') return { roots: [] }
      throw noClient(method)
    }
    if (!channel.access().server(server)) throw noClient(method)
    // What a client without the capability answers: it has no handler for the method.
    if (!declares(channel.capabilities(), method, params)) throw rpcFailure(ErrorCode.MethodNotFound, `Method not found: the client did not declare the capability for ${method}`)
    return channel.request(method, params, AbortSignal.any([signal, channel.signal]))
  }

  private channelFor(server: string): ClientChannel | undefined {
    const own = this.context.getStore()
    if (own?.server === server) return own.channel
    const channels = [...this.running.get(server) ?? []]
    const clients = new Set(channels.map(channel => channel.session ?? channel))
    if (clients.size > 1) throw rpcFailure(ErrorCode.InvalidRequest, 'several clients have requests running on this server and nothing tells which one this request belongs to: refused')
    return channels.at(-1)
  }
}
