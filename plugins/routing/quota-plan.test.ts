import { describe, expect, it } from 'vitest'
import { nextAfterQuota } from './quota-plan.ts'
import type { Candidate } from 'model-proxy'

const cred = (id: string) => ({ id, provider: 'p', family: 'alpha', priority: 0, baseUrl: '', headers: {}, prefix: '', models: [], excludedModels: [], attributes: {} })
const at = (id: string, model: string): Candidate => ({ credential: cred(id), upstreamModel: model })

describe('nextAfterQuota (rule 10)', () => {
  it.each([
    [true, true, at('A', 'm'), { credential: cred('A'), upstreamModel: 'm-preview' }],
    [true, true, at('A', 'm-preview'), 'next-credential'],
    [true, false, at('A', 'm'), 'next-credential'],
    [false, true, at('A', 'm'), { credential: cred('A'), upstreamModel: 'm-preview' }],
    [false, true, at('A', 'm-preview'), 'stop'],
    [false, false, at('A', 'm'), 'stop'],
  ])('switch-project %s, switch-preview %s, after %j', (switchProject, switchPreviewModel, candidate, expected) => {
    expect(nextAfterQuota(candidate, { switchProject, switchPreviewModel }, 'm')).toEqual(expected)
  })

  it('a model that is itself a preview has no preview of its own', () => {
    expect(nextAfterQuota(at('A', 'x-preview'), { switchProject: true, switchPreviewModel: true }, 'x-preview')).toBe('next-credential')
  })
})
