import type { ProxyRequest } from './hooks.ts'

/** State kept on objects of one type (a pipeline request, the client's HTTP request, a response): typed get and set. */
export interface ObjectState<O extends object, T> {
  get(target: O): T | undefined
  set(target: O, value: T | undefined): void
}

/** State a plugin keeps for one request while it runs: read, written, dropped with the request. */
export type RequestState<T> = ObjectState<ProxyRequest, T>

/**
 * State under a private symbol on the object itself. Not a WeakMap keyed by the object: V8's
 * young-generation collector treats every WeakMap entry whose key is young as an ephemeron it cannot
 * clear, so the key and value survive the scavenge and are promoted; with one entry per request the
 * proxy promoted whole requests (~7 KB each) and its scavenges tripled (docs/benchmarks.md). A property
 * dies with the object in the first scavenge after it is answered.
 *
 * `shared`: the key is `Symbol.for('model-proxy.<name>')`, the same in every module graph, for marks an
 * in-process caller puts on a `Request` it hands the app. A network request cannot carry a symbol, so a
 * client can never set one.
 */
export function defineObjectState<O extends object, T>(name: string, options?: { shared?: boolean }): ObjectState<O, T> {
  const key = options?.shared ? Symbol.for(`model-proxy.${name}`) : Symbol(name)
  // The one place the key is seen: callers only get and set, typed.
  const slot = (target: O): Record<symbol, T | undefined> => target as O & Record<symbol, T | undefined>
  return {
    get: target => slot(target)[key],
    set: (target, value) => { slot(target)[key] = value },
  }
}

/** Per-request state for a plugin, on the pipeline request (see `defineObjectState` for why on the request). */
export const defineRequestState = <T>(name: string): RequestState<T> => defineObjectState<ProxyRequest, T>(name)
