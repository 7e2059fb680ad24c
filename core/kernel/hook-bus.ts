import { HookableCore } from 'hookable'
import type { ProxyHooks } from './hooks.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { createLogLimiter } from './log-limit.ts'

type HookName = keyof ProxyHooks & string
type Listener = (...args: any[]) => unknown
type ArgsOf<N extends HookName> = Parameters<ProxyHooks[N]>

/**
 * Built-in hooks whose listeners watch or decorate, never decide: the kernel calls them with
 * `callObservers`, so a failing listener is logged with its plugin's name and the request (or reload,
 * or shutdown) goes on as if that listener were not there. Every other hook is deciding: a failure
 * fails what called it (the request gets a 500 in its client's format). See docs/hooks.md.
 */
export const observerHooks = ['attempt-result', 'upstream-reply', 'before-response', 'after-response', 'config-reload', 'close'] as const satisfies readonly HookName[]

export interface HookBusOptions {
  /** Where failures of observer listeners go (rate-limited per plugin and hook). */
  logError: (message: string) => void
  /** How long one async listener may take, ms (`timeouts.hook-seconds`), read per call: 0 = no bound. */
  timeoutMs?: () => number
}

/**
 * The kernel's hook bus: hookable's `HookableCore` (no `console.createTask` per call) plus what a
 * plugin host needs: who registered each listener, `hookOnce`, and observer calls that contain failures.
 *
 * Listener lists are copy-on-write: registering or removing builds a new array, so a call walks the
 * list it started with (a `hookOnce` listener removing itself never skips the next one) and no call
 * copies it. A hook with no listeners costs one property read.
 */
export class ProxyHookBus extends HookableCore<ProxyHooks> {
  /** The plugin each listener came from (set while that plugin's `setup` runs). */
  private readonly owners = new WeakMap<Listener, string>()
  private owner: string | undefined
  private readonly report: (kind: string, message: string) => void
  private readonly timeoutMs: () => number

  constructor(options: HookBusOptions) {
    super()
    this.report = createLogLimiter(options.logError)
    this.timeoutMs = options.timeoutMs ?? (() => 0)
  }

  override hook<N extends HookName>(name: N, fn: ProxyHooks[N]): () => void {
    if (!name || typeof fn !== 'function') return () => {}
    if (this.owner) this.owners.set(fn, this.owner)
    this._hooks[name] = [...(this._hooks[name] ?? []), fn]
    let registered: ProxyHooks[N] | undefined = fn
    return () => {
      if (registered) this.removeHook(name, registered)
      registered = undefined
    }
  }

  /** `fn` runs on the next call of `name` only. */
  hookOnce<N extends HookName>(name: N, fn: ProxyHooks[N]): () => void {
    let ran = false
    const once = ((...args: unknown[]) => {
      if (ran) return
      ran = true
      unregister()
      return (fn as Listener)(...args)
    }) as ProxyHooks[N]
    const unregister = this.hook(name, once)
    return unregister
  }

  override removeHook<N extends HookName>(name: N, fn: ProxyHooks[N]): void {
    const list = this._hooks[name]
    const index = list ? list.indexOf(fn) : -1
    if (index === -1) return
    const next = list!.filter((_, i) => i !== index)
    this._hooks[name] = next.length ? next : undefined
  }

  /**
   * A deciding hook: listeners run one after the other, and the first failure stops the call. A
   * `ProxyError` (or a request validation error) thrown on purpose reaches the client as it is; anything
   * else becomes a 500 naming the plugin and the hook, with the original as `cause`.
   */
  override callHook<N extends HookName>(name: N, ...args: ArgsOf<N>): void | Promise<void> {
    const list = this._hooks[name]
    if (list) return this.decide(name, list, args, 0)
  }

  /**
   * An observer hook: every listener runs, one after the other, whatever the others did. A listener that
   * throws or rejects is logged with its plugin's name. Never throws, never rejects; returns a promise
   * only when a listener was async.
   */
  callObservers<N extends HookName>(name: N, ...args: ArgsOf<N>): void | Promise<void> {
    const list = this._hooks[name]
    if (list) return this.observe(name, list, args, 0)
  }

  /** Whether `name` has listeners: a caller may skip building a context nobody reads. */
  listens(name: HookName): boolean {
    return this._hooks[name] !== undefined
  }

  /** Runs `setup` so that every listener it registers (until its promise settles) is `plugin`'s. */
  async asPlugin<T>(plugin: string, setup: () => T | Promise<T>): Promise<T> {
    const previous = this.owner
    this.owner = plugin
    try {
      return await setup()
    } finally {
      this.owner = previous
    }
  }

  /** The plugin a listener came from, for messages: `plugin "routing"`, or the function's own name. */
  ownerOf(fn: Listener): string {
    const owner = this.owners.get(fn)
    return owner ? `plugin "${owner}"` : `a listener${fn.name ? ` (${fn.name})` : ''}`
  }

  private decide(name: string, list: Listener[], args: unknown[], start: number): void | Promise<void> {
    for (let i = start; i < list.length; i++) {
      const fn = list[i]!
      let result: unknown
      try {
        result = fn(...args)
        // Inside the try: a returned value whose `then` throws (a hostile Proxy) is this listener's failure too.
        if (isThenable(result)) return bounded(result, this.timeoutMs()).then(() => this.decide(name, list, args, i + 1), (error) => { throw this.failed(name, fn, error) })
      } catch (error) {
        return Promise.reject(this.failed(name, fn, error))
      }
    }
  }

  private observe(name: string, list: Listener[], args: unknown[], start: number): void | Promise<void> {
    for (let i = start; i < list.length; i++) {
      const fn = list[i]!
      try {
        const result = fn(...args)
        if (isThenable(result)) {
          return bounded(result, this.timeoutMs()).then(
            () => this.observe(name, list, args, i + 1),
            (error) => {
              this.logObserverFailure(name, fn, error)
              return this.observe(name, list, args, i + 1)
            },
          )
        }
      } catch (error) {
        this.logObserverFailure(name, fn, error)
      }
    }
  }

  private logObserverFailure(name: string, fn: Listener, error: unknown): void {
    const who = this.ownerOf(fn)
    try {
      this.report(`${who}:${name}`, `${who}: its ${name} hook failed (ignored; the rest goes on without it): ${describe(error)}`)
    } catch {}
  }

  /**
   * What a failed deciding listener turns into: its own client error (a 4xx or 5xx status), or a 500 that
   * names it. Whatever it threw is only read inside a try: a thrown Proxy whose traps throw is a failure too.
   */
  private failed(name: string, fn: Listener, error: unknown): unknown {
    let meant = false
    let late = false
    try {
      const kind = (error as Error | undefined)?.name
      meant = (kind === 'ProxyError' && isErrorStatus((error as ProxyError).status)) || kind === 'RequestValidationError'
      late = error instanceof HookTimeout
    } catch {}
    if (meant) return error
    if (late) return new ProxyError(500, `${this.ownerOf(fn)} did not finish its ${name} hook within ${(error as HookTimeout).seconds} s`, 'server_error', 'plugin_hook_timeout')
    return new ProxyError(500, `${this.ownerOf(fn)} failed in its ${name} hook`, 'server_error', 'plugin_hook_failed', { cause: error })
  }
}

/** A listener still running after the bound (`timeouts.hook-seconds`): its call goes on without it. */
class HookTimeout extends Error {
  constructor(readonly seconds: number) {
    super(`it did not finish within ${seconds} s (timeouts.hook-seconds)`)
    this.name = 'HookTimeout'
    // Logged as it is: where the timer fired says nothing about the listener.
    this.stack = `${this.name}: ${this.message}`
  }
}

/** Listener calls still running, with the time each must end by; one timer, set for the earliest, serves them all. */
const running = new Set<{ deadline: number; fail: () => void }>()
let sweepAt = 0
let sweepTimer: NodeJS.Timeout | undefined

function sweep(): void {
  sweepTimer = undefined
  const now = Date.now()
  let next = Number.POSITIVE_INFINITY
  for (const call of running) {
    if (call.deadline <= now) call.fail()
    else next = Math.min(next, call.deadline)
  }
  if (next !== Number.POSITIVE_INFINITY) arm(next)
}

function arm(deadline: number): void {
  if (sweepTimer && sweepAt <= deadline) return
  if (sweepTimer) clearTimeout(sweepTimer)
  sweepAt = deadline
  sweepTimer = setTimeout(sweep, Math.max(0, deadline - Date.now()))
  sweepTimer.unref()
}

/**
 * `result`, or a HookTimeout after `ms`: a listener that never settles must not hold its request (or
 * shutdown) forever. No timer per call (a timer and a race cost ~1 µs an async listener, several a
 * request): the calls wait in one set, and a single timer set for the earliest deadline sweeps it.
 */
function bounded(result: PromiseLike<unknown>, ms: number): Promise<unknown> {
  if (!(ms > 0 && ms < 2 ** 31)) return Promise.resolve(result)
  return new Promise((resolve, reject) => {
    const call = { deadline: Date.now() + ms, fail: () => { running.delete(call); reject(new HookTimeout(ms / 1000)) } }
    running.add(call)
    arm(call.deadline)
    result.then((value) => { running.delete(call); resolve(value) }, (error) => { running.delete(call); reject(error) })
  })
}

/** A status a client may get as an error: anything else (a 200, a 999, a string) from a listener is a bug in it. */
export const isErrorStatus = (status: unknown): status is number => Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599

const isThenable = (value: unknown): value is PromiseLike<unknown> => !!value && typeof (value as PromiseLike<unknown>).then === 'function'
const describe = (error: unknown) => error instanceof Error ? error.stack ?? `${error.name}: ${error.message}` : String(error)

export function createProxyHooks(options: HookBusOptions): ProxyHookBus {
  return new ProxyHookBus(options)
}
