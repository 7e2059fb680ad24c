import type { ClientBody } from './client-body.ts'

interface LazyState { body: ClientBody; touched: boolean }
// The state is asked of the stand-in itself (its `get` trap answers this symbol without parsing): a
// WeakMap keyed by one object per request keeps them all past the young collection (core/request-state.ts).
const lazyState = Symbol('lazy json')
const stateOf = (json: object): LazyState | undefined => (json as { [lazyState]?: LazyState })[lazyState]

/**
 * An object that stands for the client's body in `UpstreamHttpRequest.json` without building it. A
 * provider puts it in `json` as it does any body; if anyone reads or changes it (a provider that takes
 * the model out, a payload rule, a hook), it parses the client's bytes then and is from that moment an
 * ordinary object whose current state is serialized. Untouched, the client's bytes go upstream as they
 * came (`clientBytesOf`). Any access counts as a change: a nested edit (`json.messages.push(...)`) passes
 * no trap of ours, so after a read the bytes are never trusted again.
 */
export function lazyJsonOf(body: ClientBody): Record<string, unknown> {
  const state: LazyState = { body, touched: false }
  const whole = () => {
    state.touched = true
    return body.object()
  }
  const proxy = new Proxy({}, {
    get: (_, key) => key === lazyState ? state : Reflect.get(whole(), key),
    has: (_, key) => Reflect.has(whole(), key),
    ownKeys: () => Reflect.ownKeys(whole()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(whole(), key)
      // The proxy's own target is empty and extensible: every property must be reported configurable.
      if (descriptor) descriptor.configurable = true
      return descriptor
    },
    set: (_, key, value) => Reflect.set(whole(), key, value),
    deleteProperty: (_, key) => Reflect.deleteProperty(whole(), key),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(whole(), key, descriptor),
  })
  return proxy as Record<string, unknown>
}

/** The client's bytes, when `json` is a lazy body nobody has touched. */
export function clientBytesOf(json: object): Buffer | undefined {
  const state = stateOf(json)
  return state && !state.touched ? state.body.bytes : undefined
}

/** A plain object for `json` (what `structuredClone` and friends need): a lazy body is parsed. */
export function plainJsonOf<T extends object>(json: T): T {
  const state = stateOf(json)
  if (!state) return json
  state.touched = true
  return state.body.object() as T
}
