import { describe, expect, it } from 'vitest'
import { createStorage } from 'unstorage'
import { RoutingState } from './state.ts'
import type { Candidate } from 'model-proxy'

const candidate = (id: string, model = 'm'): Candidate => ({ upstreamModel: model, credential: { id, family: 'compat', provider: 'p', priority: 0, baseUrl: '', headers: {}, prefix: '', models: [], excludedModels: [], attributes: {} } })

describe('credential states with a fake clock', () => {
  it('ready -> cooldown (1 s, 2 s, 4 s ...) -> ready when the wait elapses; success resets the count', () => {
    let now = 1_000_000
    const state = new RoutingState(createStorage(), () => {}, () => now)
    const a = candidate('a')
    expect(state.availability(a, now)).toBe(true)
    expect(state.markQuota('a', 'm').until).toBe(now + 1000)
    expect(state.stateOf('a')).toBe('cooldown')
    expect(state.availability(a, now)).toBe(now + 1000)
    now += 1000
    expect(state.availability(a, now)).toBe(true)
    expect(state.stateOf('a')).toBe('ready')
    expect(state.markQuota('a', 'm').until).toBe(now + 2000)
    expect(state.markQuota('a', 'm').until).toBe(now + 4000)
    state.markSuccess('a', 'm')
    expect(state.markQuota('a', 'm').until).toBe(now + 1000)
  })

  it('a cooldown is per model; blocked and disabled are per credential', () => {
    const now = 5_000
    const state = new RoutingState(createStorage(), () => {}, () => now)
    state.markQuota('a', 'm1', 60)
    expect(state.availability(candidate('a', 'm1'), now)).toBe(now + 60_000)
    expect(state.availability(candidate('a', 'm2'), now)).toBe(true)
    state.block('a', 'maintenance')
    expect(state.availability(candidate('a', 'm2'), now)).toBe(false)
    expect(state.stateOf('a')).toBe('blocked')
    state.unblock('a')
    state.setDisabled('a', true)
    expect(state.stateOf('a')).toBe('disabled')
  })

  it('sync keeps the newer of two copies', async () => {
    const storage = createStorage()
    let now = 10_000
    const one = new RoutingState(storage, () => {}, () => now)
    const two = new RoutingState(storage, () => {}, () => now)
    one.markQuota('a', 'm', 30)
    await new Promise(resolve => setTimeout(resolve, 10))
    await two.sync()
    expect(two.stateOf('a', now)).toBe('cooldown')
    now += 1
    two.resetCooldown('a')
    await new Promise(resolve => setTimeout(resolve, 10))
    await one.sync()
    expect(one.stateOf('a', now)).toBe('ready')
  })

  it('a block written over by an instance that had not pulled it yet is written back and reaches it', async () => {
    const storage = createStorage()
    let now = 20_000
    const one = new RoutingState(storage, () => {}, () => now)
    const two = new RoutingState(storage, () => {}, () => now)
    one.block('a', 'maintenance')
    now += 10
    // `two` notes quota windows of `a` before its next pull: its copy, without the block, is stored.
    two.setWindows('a', { requests: { used: 0.5 } })
    await new Promise(resolve => setTimeout(resolve, 10))
    expect(await storage.getItem('routing:cred:a')).not.toHaveProperty('blocked')
    expect(await one.sync()).toBe(1)
    expect(one.stateOf('a')).toBe('blocked')
    expect(await two.sync()).toBe(0)
    expect(two.stateOf('a')).toBe('blocked')
    expect(two.record('a')?.windows).toEqual({ requests: { used: 0.5 } })
    expect(await one.sync()).toBe(0)
  })

  it('a record belongs to its owner: it follows it to another id, and is no other credential\'s', async () => {
    const storage = createStorage()
    const now = 20_000
    const one = new RoutingState(storage, () => {}, () => now)
    const two = new RoutingState(storage, () => {}, () => now)
    let owners = new Map([['x:0', 'key-a'], ['x:1', 'key-b']])
    one.owners = () => owners
    two.owners = () => owners
    one.block('x:1', 'leaked')
    await new Promise(resolve => setTimeout(resolve, 10))
    await two.sync()
    // key-a removed: key-b is x:0 now, whose block is still at x:1 until it is moved.
    owners = new Map([['x:0', 'key-b']])
    expect(two.stateOf('x:0')).toBe('ready')
    two.follow()
    expect(two.stateOf('x:0')).toBe('blocked')
    // A key added where the block was left is not blocked; the one that moved keeps it on every instance.
    owners = new Map([['x:0', 'key-b'], ['x:1', 'key-c']])
    expect(two.availability(candidate('x:1'), now)).toBe(true)
    await new Promise(resolve => setTimeout(resolve, 10))
    await one.sync()
    expect(one.stateOf('x:0')).toBe('blocked')
    expect(one.stateOf('x:1')).toBe('ready')
  })
})

