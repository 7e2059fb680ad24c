import { describe, expect, it } from 'vitest'
import { createProxyHooks } from '../kernel/hook-bus.ts'
import type { Candidate, PickContext, ProxyRequest } from '../kernel/hooks.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { pickCandidate } from './pick.ts'
import { checkCandidates, checkHookError } from './hook-results.ts'

/** What deciding listeners leave on their context is checked before the executor acts on it. */
const candidate: Candidate = { credential: { id: 'compat:a:0', family: 'compat' } as Candidate['credential'], upstreamModel: 'm' }

function pickWith(listener: (ctx: PickContext) => void) {
  const hooks = createProxyHooks({ logError: () => {} })
  hooks.hook('credential-pick', listener)
  const kernel = { hooks } as unknown as ProxyKernel
  return pickCandidate(kernel, {} as ProxyRequest, [candidate], new Set(), new AbortController().signal)
}
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: ProxyError) => error.info)

describe('credential-pick results', () => {
  it('a waitUntil already past, again and again: the event loop keeps turning, then the plugins\' 500', async () => {
    let timerRan = false
    setTimeout(() => { timerRan = true }, 0)
    let calls = 0
    // Before: every round was microtasks only, so no timer (nor any I/O) ran: the process froze. The
    // listener stops it itself after 20000 rounds, so a regression fails here instead of hanging.
    const info = await failure(pickWith((ctx) => {
      if (++calls > 20_000) throw new ProxyError(500, 'spun')
      ctx.waitUntil = 1
    }))
    expect(timerRan).toBe(true)
    expect(info).toMatchObject({ status: 500, code: 'plugin_hook_failed', message: 'the credential-pick hooks kept asking to wait until a time already past, and picked nothing' })
  })

  it.each([Number.NaN, Infinity, 'soon'])('waitUntil %s: the plugins\' 500, not a busy loop', async (waitUntil) => {
    const info = await failure(pickWith((ctx) => { ctx.waitUntil = waitUntil as number }))
    expect(info).toMatchObject({ status: 500, code: 'plugin_hook_failed' })
  })

  it('a pick that is no candidate, an error that is no error: the plugins\' 500', async () => {
    expect(await failure(pickWith((ctx) => { ctx.pick = {} as Candidate }))).toMatchObject({ status: 500, message: 'the credential-pick hooks left a pick that is no candidate' })
    expect(await failure(pickWith((ctx) => { ctx.error = { status: 200, message: 'fine?' } }))).toMatchObject({ status: 500, code: 'plugin_hook_failed' })
  })

  it('a good pick and a good error pass', async () => {
    expect(await pickWith((ctx) => { ctx.pick = candidate })).toEqual({ kind: 'picked', candidate })
    expect(await pickWith((ctx) => { ctx.error = { status: 429, message: 'later', type: 'rate_limit_error' } })).toMatchObject({ kind: 'none', error: { status: 429 } })
  })
})

describe('route-resolve results', () => {
  it.each([['a string', 'abc'], ['a null entry', [null]], ['an empty object', [{}]], ['no model', [{ credential: candidate.credential }]]])('candidates that are %s: the plugins\' 500', (_, candidates) => {
    expect(() => checkCandidates(candidates)).toThrow('the route-resolve hooks left candidates that are no list of candidates')
  })

  it.each([200, 999, 'x', undefined])('an error with status %s: the plugins\' 500', (status) => {
    expect(() => checkHookError({ status, message: 'm' } as never, 'route-resolve')).toThrow('the route-resolve hooks left an error that is no error')
  })

  it('good candidates and errors pass as they are', () => {
    expect(checkCandidates([candidate])).toEqual([candidate])
    const error = { status: 403, message: 'no', type: 'permission_error' }
    expect(checkHookError(error, 'route-resolve')).toBe(error)
  })
})
