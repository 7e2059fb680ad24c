import type { ClientBody } from './client-body.ts'

interface LazyState {
  body: ClientBody
  touched: boolean
  /** Top-level fields the proxy adds before the client's own (`withLeadingField`), and the bytes with them. */
  leading?: Record<string, unknown>
  bytes?: Buffer
}
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
    const object = body.object()
    if (state.leading) Object.assign(object, state.leading)
    return object
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
  return state && !state.touched ? state.bytes ?? state.body.bytes : undefined
}

/**
 * Adds a top-level field the client did not send to a lazy body, without parsing it: the bytes get it
 * written right after their opening brace, the object (should anyone read it) gets it too. False when
 * `json` is no untouched lazy body.
 */
export function withLeadingField(json: object, field: string, value: unknown): boolean {
  const state = stateOf(json)
  if (!state || state.touched) return false
  state.leading = { ...state.leading, [field]: value }
  state.bytes = withLeadingBytes(state.bytes ?? state.body.bytes, field, value)
  return true
}

/** JSON object bytes with `"field":value` written first (the client's text untouched after it). */
export function withLeadingBytes(bytes: Buffer | string, field: string, value: unknown): Buffer {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes
  const open = buffer.indexOf(0x7b)
  let next = open + 1
  while (next < buffer.length && (buffer[next] === 0x20 || buffer[next] === 0x0a || buffer[next] === 0x0d || buffer[next] === 0x09)) next++
  const empty = buffer[next] === 0x7d
  const inserted = Buffer.from(`${JSON.stringify(field)}:${JSON.stringify(value)}${empty ? '' : ','}`, 'utf8')
  return Buffer.concat([buffer.subarray(0, open + 1), inserted, buffer.subarray(open + 1)])
}

/** A plain object for `json` (what `structuredClone` and friends need): a lazy body is parsed. */
export function plainJsonOf<T extends object>(json: T): T {
  const state = stateOf(json)
  if (!state) return json
  state.touched = true
  return state.body.object() as T
}
