import { describe, expect, it } from 'vitest'
import { parsePath, setPath, deletePath, hasPath } from './json-path.ts'
import { compileRules } from './compile.ts'
import { applyRules } from './apply.ts'
import { validateConfig } from 'model-proxy/kit/config'

describe('json paths', () => {
  it.each([
    ['a.b.c', ['a', 'b', 'c']],
    ['messages.0.content', ['messages', 0, 'content']],
    ['contents[1].parts[0].text', ['contents', 1, 'parts', 0, 'text']],
  ])('%s', (path, segments) => {
    expect(parsePath(path)).toEqual(segments)
  })

  it('sets, tests and deletes', () => {
    const body: Record<string, unknown> = { a: [{ b: 1 }] }
    setPath(body, parsePath('x.y'), 2)
    setPath(body, parsePath('list.0'), 'first')
    expect(body).toEqual({ a: [{ b: 1 }], x: { y: 2 }, list: ['first'] })
    expect(hasPath(body, parsePath('a.0.b'))).toBe(true)
    deletePath(body, parsePath('a.0.b'))
    deletePath(body, parsePath('missing.deep'))
    expect(body.a).toEqual([{}])
  })
})

const rulesOf = (payload: unknown, warnings: string[] = []) => compileRules(validateConfig({ payload }).payload, m => warnings.push(m))

describe('payload rules', () => {
  const target = { models: ['gemini-2.5-pro', 'client-alias'], protocol: 'proto_alpha' }

  it('filter first, then defaults only where the client had nothing, then overrides', () => {
    const rules = rulesOf({
      override: [{ models: [{ name: 'gemini-*' }], params: { 'generationConfig.temperature': 0.2 } }],
      default: [{ models: [{ name: 'gemini-*' }], params: { 'generationConfig.topP': 0.9, 'generationConfig.maxOutputTokens': 100 } }],
      filter: [{ models: [{ name: '*' + 'pro' }], params: ['safetySettings', 'generationConfig.topP'] }],
    })
    const body = { safetySettings: [1], generationConfig: { temperature: 1, topP: 0.5 } }
    applyRules(body, rules, target)
    // topP was the client's own: filtered, and not defaulted back in.
    expect(body).toEqual({ generationConfig: { temperature: 0.2, maxOutputTokens: 100 } })
  })

  it('matches by protocol and by wildcard, case-sensitively', () => {
    const rules = rulesOf({ override: [{ models: [{ name: 'GEMINI-*' }], params: { a: 1 } }, { models: [{ name: 'gemini-*', protocol: 'proto_beta' }], params: { b: 1 } }, { models: [{ name: 'client-*', protocol: 'proto_alpha' }], params: { c: 1 } }] })
    const body = {}
    applyRules(body, rules, target)
    expect(body).toEqual({ c: 1 })
  })

  it('raw values are parsed JSON; an invalid one drops its rule with a warning naming it', () => {
    const warnings: string[] = []
    const rules = rulesOf({ 'override-raw': [{ models: [], params: { 'tools': '[{"googleSearch":{}}]' } }, { models: [], params: { bad: '{nope' } }], 'default-raw': [{ models: [], params: { n: '3' } }] }, warnings)
    expect(warnings).toEqual(['payload.override-raw[1] dropped: bad is not valid JSON ({nope)'])
    const body = {}
    applyRules(body, rules, target)
    expect(body).toEqual({ tools: [{ googleSearch: {} }], n: 3 })
  })
})
