import { describe, expect, it } from 'vitest'
import type { Part } from 'model-proxy'
import { encodeChatResponse } from './response.ts'

// An answer's `message.content` is a string or null (ChatCompletionMessage): an image another vendor
// generated (Gemini's inlineData) has no place in it, as it has none in a stream's content deltas.
describe('chat answer content', () => {
  it.each<[string, Part[], string | null]>([
    ['text and a generated image: the text', [{ type: 'text', text: 'Here is your cat.' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }], 'Here is your cat.'],
    ['an image alone: no content', [{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }], null],
    ['a generated document', [{ type: 'text', text: 'a' }, { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=' }, { type: 'text', text: 'b' }], 'ab'],
  ])('%s', (_name, parts, content) => {
    const body = encodeChatResponse({ id: 'x', model: 'm', finishReason: 'stop', parts }) as any
    expect(body.choices[0].message.content).toEqual(content)
  })
})
