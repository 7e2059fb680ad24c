import { describe, expect, it } from 'vitest'
import type { StreamEvent } from 'model-proxy'
import { decodeChatResponse, encodeChatResponse } from './response.ts'
import { createChatStreamDecoder } from './stream-decode.ts'
import { createChatStreamEncoder } from './stream-encode.ts'

// A search model's answer (gpt-4o-search-preview): `message.annotations` of type url_citation, offsets in
// characters of the content; a stream sends them on a delta of their own after the text.
const text = 'Paris is sunny. Lyon is rainy.'
const paris = { type: 'url_citation', url_citation: { start_index: 0, end_index: 15, url: 'https://w.test/paris', title: 'Paris' } }
const lyon = { type: 'url_citation', url_citation: { start_index: 16, end_index: 30, url: 'https://w.test/lyon', title: 'Lyon' } }
const citations = [{ url: 'https://w.test/paris', title: 'Paris', start: 0, end: 15, origin: 'chat' }, { url: 'https://w.test/lyon', title: 'Lyon', start: 16, end: 30, origin: 'chat' }]

describe('chat url_citation annotations', () => {
  it('decode: the content\'s citations', () => {
    const response = decodeChatResponse({ id: 'chatcmpl-1', model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text, annotations: [paris, lyon] } }] })
    expect(response.parts).toEqual([{ type: 'text', text, citations }])
  })

  it('encode: offsets count from the start of the content the text parts make', () => {
    const body = encodeChatResponse({ id: 'x', model: 'm', finishReason: 'stop', parts: [
      { type: 'text', text: 'Paris is sunny.', citations: [{ url: 'https://w.test/paris', title: 'Paris' }] },
      { type: 'text', text: ' Lyon is rainy.', citations: [{ url: 'https://w.test/lyon', title: 'Lyon', start: 1, end: 15 }] },
    ] }) as any
    expect(body.choices[0].message).toMatchObject({ content: text, annotations: [paris, lyon] })
  })

  it('stream decode: an annotations delta cites the text streamed before it', () => {
    const decoder = createChatStreamDecoder()
    const chunk = (delta: unknown, finish: string | null = null) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }) })
    const events = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Paris is sunny.' }), chunk({ content: ' Lyon is rainy.' }), chunk({ annotations: [paris, lyon] }), chunk({}, 'stop')].flatMap(c => decoder.push(c))
    expect(events.filter(event => event.type === 'citation')).toEqual(citations.map(citation => ({ type: 'citation', index: 0, citation })))
  })

  it('stream encode: the citations go out in one annotations delta before the finish', () => {
    const encoder = createChatStreamEncoder({ model: 'm' })
    const events: StreamEvent[] = [
      { type: 'start', id: 'x', model: 'm' },
      // A messages upstream cites a whole block, and before its text.
      { type: 'citation', index: 0, citation: { url: 'https://w.test/paris', title: 'Paris' } },
      { type: 'text', index: 0, delta: 'Paris is sunny.' },
      { type: 'text', index: 1, delta: ' Lyon is rainy.' },
      { type: 'citation', index: 1, citation: { url: 'https://w.test/lyon', title: 'Lyon', start: 1, end: 15 } },
      { type: 'finish', reason: 'stop' },
    ]
    const chunks = events.map(event => encoder.push(event)).join('').split('\n\n').filter(Boolean).map(frame => JSON.parse(frame.slice('data: '.length)))
    const annotated = chunks.filter(chunk => chunk.choices[0]?.delta?.annotations)
    expect(annotated.map(chunk => chunk.choices[0].delta.annotations)).toEqual([[paris, lyon]])
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop')
  })
})
