import { describe, expect, it } from 'vitest'
import { CallLedger, partsFromGenerate, toolResultText } from './parts.ts'

describe('toolResultText', () => {
  it.each([
    ['a result string', { result: 'sunny' }, 'sunny'],
    ['an output string', { output: 'sunny' }, 'sunny'],
    ['the Vercel AI SDK text wrapper', { name: 'get_weather', content: 'sunny' }, 'sunny'],
    ['the Vercel AI SDK json wrapper', { name: 'get_weather', content: { temp: 21 } }, '{"temp":21}'],
    ['content alone', { content: 'sunny' }, 'sunny'],
    ['content next to other fields (kept whole)', { content: 'sunny', unit: 'C' }, '{"content":"sunny","unit":"C"}'],
    ['any other object', { temp: 21 }, '{"temp":21}'],
    ['nothing', undefined, '{}'],
  ])('%s', (_name, response, text) => {
    expect(toolResultText(response)).toBe(text)
  })

  it('is what a functionResponse part carries to other families', () => {
    const parts = partsFromGenerate([{ functionResponse: { id: 'call_1', name: 'get_weather', response: { name: 'get_weather', content: 'sunny' } } }], new CallLedger())
    expect(parts).toEqual([{ type: 'tool_result', callId: 'call_1', name: 'get_weather', content: 'sunny' }])
  })
})
