import { describe, expect, it } from 'vitest'
import type { WireFormat } from './codec.ts'
import type { CanonicalRequest } from './types.ts'
import { fitRequest } from './request-rules.ts'

const base: CanonicalRequest = { model: 'm', messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }], stream: false }
const thinking = { reasoning: { budgetTokens: 4000 } }

describe('fitRequest: the vendors\' own request rules', () => {
  it.each<[string, Partial<CanonicalRequest>, WireFormat, Partial<CanonicalRequest>, string[], number?]>([
    ['chat takes 4 stop sequences', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'chat', { stop: ['a', 'b', 'c', 'd'] }, ['stop']],
    ['generateContent takes 5', { stop: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'generate', { stop: ['a', 'b', 'c', 'd', 'e'] }, ['stop']],
    ['5 fit generateContent as they are', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'generate', { stop: ['a', 'b', 'c', 'd', 'e'] }, []],
    ['messages has no limit', { stop: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'messages', { stop: ['a', 'b', 'c', 'd', 'e', 'f'] }, []],
    ['thinking + forced tool: the tool choice wins', { ...thinking, toolChoice: 'required', maxTokens: 9000 }, 'messages', { reasoning: undefined, toolChoice: 'required' }, ['reasoning']],
    ['thinking + a named tool too', { ...thinking, toolChoice: { name: 'f' }, maxTokens: 9000 }, 'messages', { reasoning: undefined }, ['reasoning']],
    ['thinking + auto tool choice is fine', { ...thinking, toolChoice: 'auto', maxTokens: 9000 }, 'messages', { reasoning: { budgetTokens: 4000 } }, []],
    ['forced tool without thinking is fine', { toolChoice: 'required', temperature: 0.2 }, 'messages', { toolChoice: 'required', temperature: 0.2 }, []],
    ['thinking drops temperature and top_k, lifts top_p to 0.95', { ...thinking, maxTokens: 9000, temperature: 0.3, topK: 40, topP: 0.5 }, 'messages', { temperature: undefined, topK: undefined, topP: 0.95 }, ['temperature', 'topK', 'topP']],
    ['temperature 1 and top_p 0.97 stay', { ...thinking, maxTokens: 9000, temperature: 1, topP: 0.97 }, 'messages', { temperature: 1, topP: 0.97 }, []],
    ['disabled thinking changes nothing', { reasoning: { budgetTokens: 0 }, temperature: 0.3, toolChoice: 'required' }, 'messages', { temperature: 0.3 }, []],
    ['the budget must stay below max_tokens: room is made', { ...thinking, maxTokens: 1000 }, 'messages', { maxTokens: 5000, reasoning: { budgetTokens: 4000} }, ['maxTokens']],
    ['without a max_tokens from the client, nothing to report', { reasoning: { effort: 'xhigh' } }, 'messages', { maxTokens: 32768 + 8192, reasoning: { budgetTokens: 32768} }, []],
    ['within the model\'s output limit', { ...thinking, maxTokens: 3000 }, 'messages', { maxTokens: 6000, reasoning: { budgetTokens: 3000} }, ['maxTokens'], 6000],
    ['no room at all: no thinking', { ...thinking, maxTokens: 3000 }, 'messages', { reasoning: undefined, maxTokens: 3000 }, ['reasoning'], 1024],
    ['sampling knobs reach other formats untouched', { ...thinking, temperature: 0.3, topK: 40 }, 'generate', { temperature: 0.3, topK: 40 }, []],
    ['streams keep every candidate', { stream: true, n: 3 }, 'generate', { n: 3 }, []],
    ['non-stream keeps n', { n: 3 }, 'chat', { n: 3 }, []],
  ])('%s', (_name, patch, upstream, expected, adapted, maxOutput) => {
    const input = { ...base, ...patch }
    const copy = structuredClone(input)
    const out = fitRequest(input, upstream, maxOutput)
    expect(out.request).toMatchObject(Object.fromEntries(Object.entries(expected).filter(([, value]) => value !== undefined)))
    for (const [key, value] of Object.entries(expected)) if (value === undefined) expect(out.request).not.toHaveProperty(key)
    expect(out.adapted).toEqual(adapted)
    expect(input).toEqual(copy)
  })
})
