import { describe, expect, it } from 'vitest'
import { decodeChatRequest } from './request-decode.ts'

const body = (tool_choice: unknown) => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f' } }], tool_choice })

// `tool_choice`: 'none' | 'auto' | 'required', a named function, and the newer `allowed_tools` (a subset
// with a mode) and `custom` choices, which have no canonical form.
describe('decodeChatRequest: tool_choice', () => {
  it.each([
    ['auto', 'auto'],
    ['required', 'required'],
    [{ type: 'function', function: { name: 'f' } }, { name: 'f' }],
  ])('%j', (choice, canonical) => {
    const request = decodeChatRequest(body(choice))
    expect(request.toolChoice).toEqual(canonical)
    expect(request.unmapped).toBeUndefined()
  })

  it.each([
    { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'f' } }] } },
    { type: 'custom', custom: { name: 'g' } },
  ])('%j is named, and kept for a chat upstream', (choice) => {
    const request = decodeChatRequest(body(choice))
    expect(request.toolChoice).toBeUndefined()
    expect(request.unmapped).toEqual(['tool_choice'])
    expect(request.extensions?.chat?.tool_choice).toEqual(choice)
  })
})
