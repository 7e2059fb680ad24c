import { describe, expect, it } from 'vitest'
import { explainPreview } from './explain.ts'

const base = { model: 'm', servedModel: 'm', rule: null, candidates: [], fallbacks: [], strategy: 'round-robin' }
const ready = { credential: 'beta:0', family: 'beta', state: 'ready' }

describe('explainPreview', () => {
  it.each([
    [{ ...base, model: '', servedModel: '' }, 'The request names no model: put one in `model` (or the URL, for generateContent); GET /v1/models lists them.'],
    [base, 'No configured provider serves m, so the request would get a 404 (model not found); GET /v1/models lists the models this proxy serves.'],
    [{ ...base, fallbacks: [{ model: 'n', candidates: [1, 2] }] }, 'No configured provider serves m, so the request would get a 404 (model not found); GET /v1/models lists the models this proxy serves. Its fallback n has 2 candidate(s).'],
    [{ ...base, candidates: [ready] }, '1 candidate(s) serve m (all ready); with round-robin, the next request would try beta:0 (beta) first.'],
    [{ ...base, servedModel: 'small', rule: 'background', candidates: [{ ...ready, state: 'cooldown' }, { credential: 'compat:p:0.0', family: 'compat', state: 'ready' }] },
      'Routing rule "background" sends it to small. 2 candidate(s) serve small (1 ready); with round-robin, the next request would try compat:p:0.0 (compat) first.'],
  ])('%j', (input, sentence) => {
    expect(explainPreview(input)).toBe(sentence)
  })
})
