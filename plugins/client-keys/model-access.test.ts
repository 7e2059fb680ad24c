import { describe, expect, it } from 'vitest'
import type { Candidate } from 'model-proxy'
import { denialText, modelDenial, unpricedUpstreams } from './model-access.ts'
import type { ClientKeyEntry, ClientKeyPolicy } from './schema.ts'

const candidate = (upstreamModel: string) => ({ upstreamModel }) as Candidate
const priced = new Set(['alias-priced', 'up-priced'])
const price = (model: string, upstream?: string) => priced.has(model) || (upstream !== undefined && priced.has(upstream)) ? { input: 1, output: 1 } : undefined
const refuse: ClientKeyPolicy = { 'on-error': 'open', 'unpriced-models': 'refuse' }
const allow: ClientKeyPolicy = { 'on-error': 'open', 'unpriced-models': 'allow' }
const key = (extra: Partial<ClientKeyEntry> = {}): ClientKeyEntry => ({ key: 'k', name: 'n', ...extra })
const budget = { usd: 1, period: 'day' as const }

describe('unpricedUpstreams', () => {
  it.each([
    ['the alias is priced', 'alias-priced', ['up-free'], []],
    ['the upstream is priced', 'm', ['up-priced'], []],
    ['one upstream of two has no price', 'm', ['up-priced', 'up-free', 'up-free'], ['up-free']],
    ['nothing serves it', 'm', [], []],
  ])('%s', (_, model, upstreams, missing) => {
    expect(unpricedUpstreams(price, model, upstreams.map(candidate))).toEqual(missing)
  })
  it('without a price table nothing is priced', () => {
    expect(unpricedUpstreams(undefined, 'alias-priced', [candidate('up-priced')])).toEqual(['up-priced'])
  })
})

describe('modelDenial', () => {
  it.each([
    ['a model outside the key\'s models', key({ models: ['a-*'] }), 'b', refuse, { reason: 'model' }],
    ['an unpriced model, a key without a budget', key(), 'm', refuse, undefined],
    ['an unpriced model, a key with a budget', key({ budget }), 'm', refuse, { reason: 'unpriced', upstreams: ['up-free'] }],
    ['the same with unpriced-models: allow', key({ budget }), 'm', allow, undefined],
    ['a priced model, a key with a budget', key({ budget }), 'alias-priced', refuse, undefined],
  ])('%s', (_, entry, model, policy, denial) => {
    expect(modelDenial(entry, model, [candidate('up-free')], price, policy)).toEqual(denial)
  })
  it('tells what it let through under allow', () => {
    const allowed: string[][] = []
    modelDenial(key({ budget }), 'm', [candidate('up-free')], price, allow, upstreams => allowed.push(upstreams))
    expect(allowed).toEqual([['up-free']])
  })
})

describe('denialText', () => {
  it('names the model, its upstream and the settings that fix it', () => {
    const text = denialText({ reason: 'unpriced', upstreams: ['vendor/x'] }, 'x')
    expect(text).toContain('model "x" (upstream "vendor/x") has no price')
    expect(text).toContain('model-prices: { "x": { input: 1, output: 2 } }')
    expect(text).toContain('client-key-policy.unpriced-models: allow')
    expect(denialText({ reason: 'model' }, 'x')).toBe('this API key may not use model "x"')
  })
})
