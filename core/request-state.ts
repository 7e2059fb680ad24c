import type { ProxyRequest } from './hooks.ts'

/** State a plugin keeps for one request while it runs: read, written, dropped with the request. */
export interface RequestState<T> {
  get(request: ProxyRequest): T | undefined
  set(request: ProxyRequest, value: T | undefined): void
}

/**
 * Per-request state under a private symbol on the request itself. Not a WeakMap keyed by the request:
 * V8's young-generation collector treats every WeakMap entry whose key is young as an ephemeron it
 * cannot clear, so the key and value survive the scavenge and are promoted; with one entry per request
 * the proxy promoted whole requests (~7 KB each) and its scavenges tripled (docs/benchmarks.md). A
 * property dies with the request in the first scavenge after it is answered.
 */
export function defineRequestState<T>(name: string): RequestState<T> {
  const key = Symbol(name)
  return {
    get: request => request[key] as T | undefined,
    set: (request, value) => { request[key] = value },
  }
}
