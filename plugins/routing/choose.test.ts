import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { H3Event } from 'h3'
import { createStorage } from 'unstorage'
import { createProxy, type Candidate, type PickContext, type Proxy } from 'model-proxy'
import { validateConfig } from 'model-proxy/kit/config'
import { createProxyRequest } from 'model-proxy/kit/http'
import { AffinityStore } from './affinity.ts'
import { choose, type Chooser } from './choose.ts'
import { RoutingState } from './state.ts'

const candidate: Candidate = { upstreamModel: 'm', credential: { id: 'A', family: 'compat', provider: 'p', priority: 0, baseUrl: '', headers: {}, prefix: '', models: [], excludedModels: [], attributes: {} } }

let proxy: Proxy
beforeAll(async () => {
  proxy = await createProxy({ config: validateConfig({ 'max-retry-interval': 5, routing: { 'session-affinity': 'off' } }) })
})
afterAll(() => proxy?.close())

describe('a pick judges every credential at one moment', () => {
  // A clock that moves on with every reading, as a loaded process's does between two looks at one state.
  it('a cooldown ending during the pick is waited for (or taken), never "no credential"', async () => {
    let now = 1_000_000
    const state = new RoutingState(createStorage(), () => {}, () => now++)
    const until = state.markQuota('A', 'm', 1).until
    // The first look at A lands just before its cooldown ends, any later one after it.
    now = until - 1
    const chooser: Chooser = { kernel: proxy.kernel, state, affinity: new AffinityStore(createStorage()), cursors: new Map() }
    const request = createProxyRequest(new H3Event(new Request('http://proxy/v1/chat/completions')), { inbound: 'chat', endpoint: 'chat', body: { model: 'm', messages: [] } })
    const ctx: PickContext = { request, candidates: [candidate], tried: new Set() }
    await choose(chooser, ctx)
    expect({ pick: ctx.pick?.credential.id, waitUntil: ctx.waitUntil, error: ctx.error }).toEqual({ pick: undefined, waitUntil: until, error: undefined })
  })
})
