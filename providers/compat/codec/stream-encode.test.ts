import { describe, expect, it } from 'vitest'
import { createChatStreamEncoder } from './stream-encode.ts'

const frames = (text: string) => text.split('\n\n').filter(Boolean).map(frame => JSON.parse(frame.slice('data: '.length)))

describe('chat stream encoder: text deltas written around their JSON', () => {
  it.each([
    ['plain', 'hello'],
    ['quotes, backslashes, newlines, unicode', 'a "b" \\ c\n\u2028 é 😀'],
  ])('%s: the same bytes JSON.stringify writes for the chunk', (_, delta) => {
    const encoder = createChatStreamEncoder({ model: 'm"odel' })
    const out = encoder.push({ type: 'text', index: 0, delta })
    const [role, chunk] = frames(out)
    expect(role.choices[0].delta).toEqual({ role: 'assistant', content: '' })
    const expected = { id: chunk.id, object: 'chat.completion.chunk', created: chunk.created, model: 'm"odel', choices: [{ index: 0, delta: { content: delta }, logprobs: null, finish_reason: null }] }
    expect(out.split('\n\n')[1]).toBe(`data: ${JSON.stringify(expected)}`)
  })

  it('another choice (n > 1) and a refusal keep their own fields', () => {
    const encoder = createChatStreamEncoder({ model: 'm' })
    const second = frames(encoder.push({ type: 'text', index: 0, delta: 'x', choice: 1 }))
    expect(second.at(-1).choices[0]).toMatchObject({ index: 1, delta: { content: 'x' } })
    const refusal = frames(encoder.push({ type: 'text', index: 1, delta: 'no', refusal: true }))
    expect(refusal.at(-1).choices[0].delta).toEqual({ refusal: 'no' })
  })
})
