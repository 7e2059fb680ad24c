import { describe, expect, it } from 'vitest'
import { buildModelIndex } from './model-index.ts'
import { matchModelPattern } from './model-match.ts'
import type { Credential } from '../provider/credential.ts'

const cred = (id: string, prefix: string, models: string[], excluded: string[] = []): Credential => ({
  id, family: 'compat', provider: id, prefix, priority: 0, baseUrl: '', headers: {}, attributes: {},
  models: models.map(name => ({ id: name, upstream: name })), excludedModels: excluded,
})

describe('matchModelPattern (rule 6 wildcard forms)', () => {
  it.each([
    ['gpt-4o', 'gpt-4o', true],
    ['gpt-4o', 'gpt-4o-mini', false],
    ['gpt-*', 'gpt-4o', true],
    ['gpt-*', 'o1', false],
    ['*-mini', 'gpt-4o-mini', true],
    ['*-mini', 'gpt-4o', false],
    ['*flash*', 'gemini-2.5-flash-lite', true],
    ['*flash*', 'gemini-2.5-pro', false],
    ['GPT-*', 'gpt-4o', false],
  ])('%s ~ %s = %s', (pattern, model, expected) => {
    expect(matchModelPattern(pattern, model)).toBe(expected)
  })
})

describe('buildModelIndex', () => {
  const creds = [cred('plain', '', ['m', 'x-mini']), cred('team', 'team', ['m'])]
  const ids = (index: Map<string, unknown[]>, model: string) => ((index.get(model) ?? []) as Array<{ credential: Credential }>).map(c => c.credential.id)

  it('prefix routing (rule 3): <prefix>/<model> reaches only credentials with that prefix', () => {
    const index = buildModelIndex(creds, false)
    expect(ids(index, 'team/m')).toEqual(['team'])
    expect(ids(index, 'm')).toEqual(['plain', 'team'])
  })

  it('force-model-prefix: unprefixed names use only credentials without a prefix', () => {
    const index = buildModelIndex(creds, true)
    expect(ids(index, 'm')).toEqual(['plain'])
    expect(ids(index, 'team/m')).toEqual(['team'])
  })

  it('excluded-models hides matching models (rule 6)', () => {
    const index = buildModelIndex([cred('a', '', ['gpt-4o', 'gpt-4o-mini', 'o1'], ['*-mini', 'o*'])], false)
    expect([...index.keys()]).toEqual(['gpt-4o'])
  })
})
