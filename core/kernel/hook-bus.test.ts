import { describe, expect, it } from 'vitest'
import { createProxyHooks } from './hook-bus.ts'
import type { ResponseContext, RouteContext } from './hooks.ts'

const route = () => ({ request: {}, candidates: [] }) as unknown as RouteContext
const response = () => ({ status: 200, responseHeaders: {} }) as unknown as ResponseContext

function bus() {
  const logged: string[] = []
  return { hooks: createProxyHooks({ logError: message => logged.push(message) }), logged }
}

describe('hook bus: registration', () => {
  it('a hookOnce listener followed by another: both run, and the once listener only once', async () => {
    const { hooks } = bus()
    const calls: string[] = []
    hooks.hookOnce('route-resolve', () => { calls.push('once') })
    hooks.hook('route-resolve', () => { calls.push('always') })
    await hooks.callHook('route-resolve', route())
    await hooks.callHook('route-resolve', route())
    expect(calls).toEqual(['once', 'always', 'always'])
  })

  it('a listener removed while a call runs still runs in that call, not in the next', async () => {
    const { hooks } = bus()
    const calls: string[] = []
    const off = hooks.hook('after-response', () => { calls.push('b') })
    hooks.hook('after-response', () => { calls.push('a'); off() }) // registered second: removes the first for later calls
    hooks.hook('after-response', () => { calls.push('c') })
    await hooks.callObservers('after-response', response())
    await hooks.callObservers('after-response', response())
    expect(calls).toEqual(['b', 'a', 'c', 'a', 'c'])
  })

  it('a hook with no listeners returns nothing synchronously (no promise on the hot path)', () => {
    const { hooks } = bus()
    expect(hooks.callHook('route-resolve', route())).toBeUndefined()
    expect(hooks.callObservers('after-response', response())).toBeUndefined()
    const off = hooks.hook('route-resolve', () => {})
    expect(hooks.callHook('route-resolve', route())).toBeUndefined()
    off()
    off()
    expect(hooks.callHook('route-resolve', route())).toBeUndefined()
  })

  it('listeners run in order, each awaited before the next', async () => {
    const { hooks } = bus()
    const calls: number[] = []
    hooks.hook('route-resolve', async () => { await new Promise(r => setTimeout(r, 5)); calls.push(1) })
    hooks.hook('route-resolve', () => { calls.push(2) })
    await hooks.callHook('route-resolve', route())
    expect(calls).toEqual([1, 2])
  })
})

describe('hook bus: observers contain failures', () => {
  it.each([
    ['throws synchronously', () => { throw new Error('sync boom') }, 'sync boom'],
    ['rejects', async () => { throw new Error('async boom') }, 'async boom'],
    ['throws a non-Error', () => { throw 'plain string' }, 'plain string'],
  ])('a listener that %s: logged with its plugin, the next ones still run, the call resolves', async (_name, failing, text) => {
    const { hooks, logged } = bus()
    const seen: string[] = []
    await hooks.asPlugin('broken-stats', () => { hooks.hook('after-response', failing) })
    hooks.hook('after-response', () => { seen.push('next') })
    await expect(Promise.resolve(hooks.callObservers('after-response', response()))).resolves.toBeUndefined()
    expect(seen).toEqual(['next'])
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain('plugin "broken-stats"')
    expect(logged[0]).toContain('after-response')
    expect(logged[0]).toContain(text)
  })

  it('a listener registered outside any plugin setup is named by its function', async () => {
    const { hooks, logged } = bus()
    hooks.hook('close', function closeTheThing() { throw new Error('no') })
    await hooks.callObservers('close')
    expect(logged[0]).toContain('closeTheThing')
  })

  it('the same failure on every request is logged a few times a minute, not every time', async () => {
    const { hooks, logged } = bus()
    await hooks.asPlugin('noisy', () => { hooks.hook('after-response', () => { throw new Error('again') }) })
    for (let i = 0; i < 50; i++) await hooks.callObservers('after-response', response())
    expect(logged.length).toBeLessThanOrEqual(10)
  })
})

describe('hook bus: deciding hooks fail their call', () => {
  it('a throwing listener stops the call with a 500 naming the plugin and hook, the original as cause', async () => {
    const { hooks } = bus()
    const after: string[] = []
    const cause = new Error('secret detail')
    await hooks.asPlugin('router', async () => {
      await Promise.resolve()
      hooks.hook('route-resolve', () => { throw cause })
    })
    hooks.hook('route-resolve', () => { after.push('ran') })
    const error = await Promise.resolve(hooks.callHook('route-resolve', route())).catch(e => e)
    expect(error.name).toBe('ProxyError')
    expect(error.info).toEqual({ status: 500, message: 'plugin "router" failed in its route-resolve hook', type: 'server_error', code: 'plugin_hook_failed' })
    expect(error.message).not.toContain('secret')
    expect(error.cause).toBe(cause)
    expect(after).toEqual([])
  })

  it('a rejecting listener is reported the same way', async () => {
    const { hooks } = bus()
    await hooks.asPlugin('picker', () => { hooks.hook('credential-pick', async () => { throw new Error('x') }) })
    await expect(hooks.callHook('credential-pick', { request: {}, candidates: [], tried: new Set() } as never)).rejects.toThrow('plugin "picker" failed in its credential-pick hook')
  })

  it('a ProxyError thrown on purpose reaches the caller as it is (a plugin refusing the request)', async () => {
    const { hooks } = bus()
    const refusal = Object.assign(new Error('over budget'), { name: 'ProxyError', status: 429 })
    hooks.hook('route-resolve', () => { throw refusal })
    await expect(hooks.callHook('route-resolve', route())).rejects.toBe(refusal)
  })

  it('setup ownership ends with the setup', async () => {
    const { hooks, logged } = bus()
    await hooks.asPlugin('first', () => {})
    hooks.hook('after-response', () => { throw new Error('late') })
    await hooks.callObservers('after-response', response())
    expect(logged[0]).not.toContain('first')
  })
})
