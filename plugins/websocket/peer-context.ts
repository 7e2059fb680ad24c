import type { PeerContext } from 'crossws'
import type { SocketPeer } from 'model-proxy/kit/access'
import type { ChainLink } from './response-chain.ts'

/** What a socket keeps for its life, typed on crossws' peer context (set at upgrade and per message). */
declare module 'crossws' {
  interface PeerContext {
    /** The client the upgrade request came from: every call on the socket is checked as it. */
    peer?: SocketPeer
    /** `/v1/responses` sockets: the last response, the base of the next `previous_response_id`. */
    last?: ChainLink
    /** `/v1/responses` sockets: messages are served one after another, in order. */
    queue?: Promise<void>
    /** Aborted when the socket closes: its running calls end (upstream included), queued ones never start. */
    gone?: AbortController
  }
}

/** A socket as the message handlers use it (crossws' peer is one). */
export interface Peer { id: string; send(data: string): void; context: PeerContext }

/** The socket's "closed" signal, made on first use; `close` aborts it (socketClosed). */
export const socketSignal = (peer: Peer): AbortSignal => (peer.context.gone ??= new AbortController()).signal

/** The socket closed: whatever it asked for is no longer anyone's to pay for. */
export const socketClosed = (peer: Peer): void => (peer.context.gone ??= new AbortController()).abort()
