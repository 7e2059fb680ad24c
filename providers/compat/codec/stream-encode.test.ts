import { describe, expect, it } from 'vitest'
import { createChatStreamEncoder } from './stream-encode.ts'
import type { Part, StreamEvent } from 'model-proxy'
import { encodeChatResponse } from './response.ts'

const frames = (text: string) => text.split('\n\n').filter(Boolean).map(frame => JSON.parse(frame.slice('data: '.length)))

describe('chat stream encoder: text deltas written around their JSON', () => {
  it.each([
    ['plain', 'hello'],
    ['quotes, backslashes, newlines, unicode', 'a "b" \\ c\n\u2028 é 😀'],
  ])('%s: the same bytes JSON.stringify writes for the chunk', (_, delta) => {
    const encoder = createChatStreamEncoder({ model: 'm"odel' })
    const out = encoder.push({ type: 'text', index: 0, delta })
    const [role, chunk] = frames(out)
    expect(role.choices[0].delta).toEqual({ role: 'assistant', content: null })
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

describe('chat stream encoder: a client reads the same message.content as from the whole answer', () => {
  const call = (index: number): StreamEvent[] => [{ type: 'tool_call_start', index, id: `c${index}`, name: 'f' }, { type: 'tool_call_delta', index, delta: '{}' }]
  it.each<[string, StreamEvent[], string | null]>([
    ['text', [{ type: 'text', index: 0, delta: 'Hi' }], 'Hi'],
    ['an empty text', [{ type: 'text', index: 0, delta: '' }], null],
    ['an empty text and a tool call', [{ type: 'text', index: 0, delta: '' }, ...call(1)], null],
    ['tool calls only', call(0), null],
    ['a refusal only', [{ type: 'text', index: 0, delta: 'No.', refusal: true }], null],
  ])('%s', (_name, events, content) => {
    const parts = events.flatMap((event): Part[] => event.type === 'text' ? [{ type: 'text', text: event.delta, ...(event.refusal && { refusal: true }) }] : event.type === 'tool_call_start' ? [{ type: 'tool_call', id: event.id, name: event.name, arguments: '{}' }] : [])
    const whole = encodeChatResponse({ id: 'r', model: 'm', parts, finishReason: 'stop' }) as { choices: Array<{ message: { content: string | null } }> }
    expect(whole.choices[0]!.message.content).toBe(content)
    const encoder = createChatStreamEncoder({ model: 'm' })
    const wire = [{ type: 'start', id: 'r', model: 'm' } as StreamEvent, ...events, { type: 'finish', reason: 'stop' } as StreamEvent].map(event => encoder.push(event)).join('')
    // As the openai SDK's accumulator joins it: a null or absent content adds nothing.
    let streamed: string | null = null
    for (const chunk of frames(wire)) if (chunk.choices[0]?.delta.content != null) streamed = (streamed ?? '') + chunk.choices[0].delta.content
    expect(streamed).toBe(content)
  })
})
