import { describe, expect, it } from 'vitest'
import { decideModelRoute, findMapping } from '../../providers/partner/model-route.ts'
import { upstreamKeyFor } from '../../providers/partner/upstream-key.ts'
import { partnerRequestHeaders, partnerResponseHeaders, partnerSearch } from '../../providers/partner/forward-headers.ts'
import { formatOfLocalPath, generateModelMethod, splitProviderPath } from '../../providers/partner/segments.ts'
import { partnerBaseUrl } from '../../providers/partner/config.ts'
import { partnerSchema as partnerConfigSchema } from '../../providers/partner/config.ts'

const local = new Set(['local-a', 'local-b'])
const has = (model: string) => local.has(model)
const mappings = [{ from: 'remote-x', to: 'local-b' }, { from: 'remote-y', to: 'nowhere' }, { from: 'local-a', to: 'local-b' }, { from: 'fam-*', to: 'local-a' }]

describe('decideModelRoute (rule 17)', () => {
  it.each([
    // model, force, expected
    ['local-a', false, { way: 'local', model: 'local-a' }],
    ['remote-x', false, { way: 'mapped', model: 'remote-x', target: 'local-b' }],
    ['remote-y', false, { way: 'upstream', model: 'remote-y', target: 'nowhere' }],
    ['unknown', false, { way: 'upstream', model: 'unknown' }],
    ['fam-small', false, { way: 'mapped', model: 'fam-small', target: 'local-a' }],
    ['local-a', true, { way: 'mapped', model: 'local-a', target: 'local-b' }],
    ['local-b', true, { way: 'local', model: 'local-b' }],
    ['remote-y', true, { way: 'upstream', model: 'remote-y', target: 'nowhere' }],
  ] as const)('%s (force %s)', (model, force, expected) => {
    expect(decideModelRoute(model, { 'model-mappings': mappings, 'force-model-mappings': force }, has)).toEqual(expected)
  })

  it('first matching mapping wins; a mapping to itself is no mapping', () => {
    expect(findMapping('fam-1', [{ from: 'fam-*', to: 'one' }, { from: 'fam-1', to: 'two' }])).toBe('one')
    expect(decideModelRoute('self', { 'model-mappings': [{ from: 'self', to: 'self' }], 'force-model-mappings': true }, () => false)).toEqual({ way: 'upstream', model: 'self', target: 'self' })
  })
})

describe('upstreamKeyFor (rule 18)', () => {
  const settings = { 'upstream-api-key': 'default', 'upstream-api-keys': [{ 'upstream-api-key': 'for-a', 'api-keys': ['a', 'a2'] }, { 'upstream-api-key': 'for-b', 'api-keys': ['b'] }] }
  it.each([['a', 'for-a'], ['a2', 'for-a'], ['b', 'for-b'], ['c', 'default'], [undefined, 'default']] as const)('client %s -> %s', (client, key) => {
    expect(upstreamKeyFor(settings, client)).toBe(key)
  })
  it('no default key: undefined for unmapped clients', () => {
    expect(upstreamKeyFor({ 'upstream-api-key': '', 'upstream-api-keys': [] }, 'a')).toBeUndefined()
  })
})

describe('forwarded headers', () => {
  it('request: client credentials and hop-by-hop out, the partner key in', () => {
    const headers = new Headers({ authorization: 'Bearer client', 'x-api-key': 'client', 'x-goog-api-key': 'client', 'x-management-key': 'secret', connection: 'close, x-hop', 'x-hop': '1', host: 'proxy', 'content-type': 'application/json', 'content-length': '12', 'x-keep': 'yes' })
    expect(partnerRequestHeaders(headers, 'partner')).toEqual({ 'content-type': 'application/json', 'content-length': '12', 'x-keep': 'yes', authorization: 'Bearer partner', 'x-api-key': 'partner' })
    expect(partnerRequestHeaders(headers, undefined, true)).toEqual({ 'content-type': 'application/json', 'x-keep': 'yes' })
  })
  it('response: hop-by-hop and Set-Cookie out, repeated headers kept', () => {
    const out = partnerResponseHeaders({ 'Content-Type': 'text/event-stream', 'transfer-encoding': 'chunked', 'set-cookie': ['a=1', 'b=2'], vary: ['origin', 'accept'], 'x-partner': 'p' })
    expect([...out]).toEqual([['content-type', 'text/event-stream'], ['vary', 'origin, accept'], ['x-partner', 'p']])
  })
  it.each([
    ['?key=client&a=1', '?a=1'], ['?key=client', ''], ['?key=other&a=1', '?key=other&a=1'], ['?a=1', '?a=1'], ['', ''],
  ])('query %s -> %s', (search, expected) => {
    expect(partnerSearch(new URL(`http://x/p${search}`), key => key === 'client')).toBe(expected)
  })
})

describe('provider segments', () => {
  it.each([
    ['/api/provider/compat/v1/chat/completions', { segment: 'compat', localPath: '/v1/chat/completions' }, 'chat'],
    ['/api/provider/beta/v1/messages', { segment: 'beta', localPath: '/v1/messages' }, 'messages'],
    ['/api/provider/alpha/v1beta/models/g-1:generateContent', { segment: 'alpha', localPath: '/v1beta/models/g-1:generateContent' }, 'generate'],
    ['/api/provider/alpha/v1beta/models/g-1:streamGenerateContent', { segment: 'alpha', localPath: '/v1beta/models/g-1:streamGenerateContent' }, 'generate'],
    ['/api/provider/alpha/v1beta/models/g-1:countTokens', { segment: 'alpha', localPath: '/v1beta/models/g-1:countTokens' }, undefined],
    ['/api/provider/beta/v1/responses', { segment: 'beta', localPath: '/v1/responses' }, undefined],
  ])('%s', (path, split, format) => {
    expect(splitProviderPath(path)).toEqual(split)
    expect(formatOfLocalPath(split.localPath)).toBe(format)
  })
  it('generate model and method, URL-encoded too', () => {
    expect(generateModelMethod('/v1beta/models/models%2Fg-2:generateContent')).toEqual(['models/g-2', 'generateContent'])
    expect(generateModelMethod('/v1beta/models/no-method')).toBeUndefined()
    expect(splitProviderPath('/api/provider/')).toBeUndefined()
  })
})

describe('partner config', () => {
  it('defaults of the section', () => {
    expect(partnerConfigSchema.parse({}).partner).toEqual({ 'upstream-url': '', 'upstream-api-key': '', 'upstream-api-keys': [], 'restrict-management-to-localhost': false, 'model-mappings': [], 'force-model-mappings': false })
  })
  it.each([
    [{ 'upstream-api-keys': [{ 'api-keys': ['a'] }] }, 'partner.upstream-api-keys[0].upstream-api-key'],
    [{ 'model-mappings': [{ from: '', to: 'b' }] }, 'partner.model-mappings[0].from'],
    [{ 'force-model-mappings': 'yes' }, 'partner.force-model-mappings'],
  ])('rejects %j at %s', (partner, path) => {
    const result = partnerConfigSchema.safeParse({ partner })
    expect(result.success).toBe(false)
    expect(result.error!.issues.map(issue => issue.path.join('.').replace(/\.(\d+)/g, '[$1]'))).toContain(path)
  })
  it.each([
    ['', 'not configured'], ['ftp://x', 'must be an http(s) URL'], ['nope', 'not a valid URL'],
  ])('upstream-url %j cannot be used: %s', (url, problem) => {
    const base = partnerBaseUrl({ 'upstream-url': url })
    expect('problem' in base && base.problem).toContain(problem)
  })
  it('upstream-url loses its trailing slash', () => {
    expect(partnerBaseUrl({ 'upstream-url': 'https://partner.example/base/' })).toEqual({ url: 'https://partner.example/base' })
  })
})
