import { describe, expect, it } from 'vitest'
import type { Part } from 'model-proxy'
import { encodeMessagesResponse } from './response.ts'

// A message's content blocks (ContentBlock of @anthropic-ai/sdk) have no image or document: an image
// another vendor generated stays out of the answer, as it does out of a stream.
describe('messages answer content', () => {
  it.each<[string, Part[], string[]]>([
    ['text and a generated image', [{ type: 'text', text: 'Here is your cat.' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }], ['text']],
    ['a generated document', [{ type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=' }, { type: 'text', text: 'b' }], ['text']],
  ])('%s', (_name, parts, types) => {
    const body = encodeMessagesResponse({ id: 'msg_1', model: 'm', finishReason: 'stop', parts }) as any
    expect(body.content.map((block: { type: string }) => block.type)).toEqual(types)
  })
})
