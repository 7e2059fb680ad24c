import { describe, expect, it } from 'vitest'
import { countRequestTokens } from './count-tokens.ts'

describe('countRequestTokens', () => {
  it('counts with a real tokenizer, growing with the text', async () => {
    const one = await countRequestTokens({ model: 'm', stream: false, messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hello world' }] }] })
    expect(one).toBe(3 + 2)
    const more = await countRequestTokens({
      model: 'm', stream: false,
      messages: [{ role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] }, { role: 'user', parts: [{ type: 'text', text: 'Hello world, how are you today?' }] }],
      tools: [{ name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object' } }],
    })
    expect(more).toBeGreaterThan(one + 8)
  })
})
