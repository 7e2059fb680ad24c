import { describe, expect, it } from 'vitest'
import { createProxyHooks } from './hook-bus.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import type { ResponseContext, RouteContext } from './hooks.ts'

/** What a listener that hangs, or throws or returns something hostile, does to a call (docs/hooks.md). */
const route = () => ({ request: {}, candidates: [] }) as unknown as RouteContext
const response = () => ({ status: 200, responseHeaders: {} }) as unknown as ResponseContext
const never = () => new Promise<void>(() => {})
/** A value whose every trap throws: reading `.name` or `.then` on it throws. */
const hostile = new Proxy({}, { get() { throw new Error('trap') }, getPrototypeOf() { throw new Error('trap') } })

function bus(timeoutMs = 50) {
  const logged: string[] = []
  const hooks = createProxyHooks({ logError: message => logged.push(message), timeoutMs: () => timeoutMs })
  return { hooks, logged }
}
const failureOf = (call: void | Promise<void>) => Promise.resolve(call).then(() => undefined, (error: unknown) => error as ProxyError)

describe('hook bus: a listener that never settles', () => {
  it('deciding: the call fails after the bound with a 500 naming the plugin', async () => {
    const { hooks } = bus()
    await hooks.asPlugin('sleepy', () => { hooks.hook('route-resolve', never) })
    const error = await failureOf(hooks.callHook('route-resolve', route()))
    expect(error).toBeInstanceOf(ProxyError)
    expect(error?.info).toMatchObject({ status: 500, code: 'plugin_hook_timeout', message: 'plugin "sleepy" did not finish its route-resolve hook within 0.05 s' })
  })

  it('observer: logged and left behind, the listeners after it still run, the call settles', async () => {
    const { hooks, logged } = bus()
    const ran: string[] = []
    await hooks.asPlugin('sleepy', () => { hooks.hook('after-response', never) })
    hooks.hook('after-response', () => { ran.push('next') })
    await hooks.callObservers('after-response', response())
    expect(ran).toEqual(['next'])
    expect(logged.join('\n')).toContain('plugin "sleepy": its after-response hook failed (ignored; the rest goes on without it): HookTimeout: it did not finish within 0.05 s')
  })

  it('a bound of 0 waits as long as the listener takes', async () => {
    const { hooks } = bus(0)
    hooks.hook('route-resolve', () => new Promise<void>(resolve => setTimeout(resolve, 80)))
    expect(await failureOf(hooks.callHook('route-resolve', route()))).toBeUndefined()
  })
})

describe('hook bus: what a deciding listener throws', () => {
  it.each([
    ['a ProxyError with status 200', () => { throw new ProxyError(200, 'fine?') }],
    ['a ProxyError with status 999', () => { throw new ProxyError(999, 'odd') }],
    ['a Proxy whose traps throw', () => { throw hostile }],
    ['a rejection with a Proxy whose traps throw', () => Promise.reject(hostile)],
    ['a returned Proxy whose traps throw', () => hostile],
  ])('%s: a 500 naming the plugin, not its text', async (_, listener) => {
    const { hooks } = bus()
    await hooks.asPlugin('odd', () => { hooks.hook('route-resolve', listener as never) })
    const error = await failureOf(hooks.callHook('route-resolve', route()))
    expect(error?.info).toMatchObject({ status: 500, code: 'plugin_hook_failed', message: 'plugin "odd" failed in its route-resolve hook' })
  })

  it('a ProxyError with a 4xx or 5xx status reaches the caller as it is', async () => {
    const { hooks } = bus()
    hooks.hook('route-resolve', () => { throw new ProxyError(503, 'closed for the night') })
    expect((await failureOf(hooks.callHook('route-resolve', route())))?.info).toMatchObject({ status: 503, message: 'closed for the night' })
  })
})
