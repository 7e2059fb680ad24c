import { describe, expect, it } from 'vitest'
import type { CanonicalRequest, ImagePart, Message } from 'model-proxy'
import { encodeChatRequest } from './request-encode.ts'

const png = (data: string): ImagePart => ({ type: 'image', mediaType: 'image/png', data })
const result = (callId: string, ...images: string[]) => ({ type: 'tool_result' as const, callId, content: [{ type: 'text' as const, text: callId }, ...images.map(png)] })
const roles = (messages: Message[]) => (encodeChatRequest({ model: 'm', messages } as CanonicalRequest).messages as Array<{ role: string; content: unknown }>)
  .map(message => message.role === 'user' && Array.isArray(message.content) ? `user(${message.content.length} images)` : message.role)

describe('chat request encoder: images a tool returned', () => {
  it('go in one user message after the run of tool messages they came with', () => {
    expect(roles([
      { role: 'assistant', parts: [{ type: 'text', text: 'calling' }] },
      { role: 'tool', parts: [result('a', 'AA'), result('b')] },
      { role: 'tool', parts: [result('c', 'BB', 'CC')] },
      { role: 'assistant', parts: [{ type: 'text', text: 'seen' }] },
    ])).toEqual(['assistant', 'tool', 'tool', 'tool', 'user(3 images)', 'assistant'])
  })

  it('from results inside a user turn: after its tool messages, before its own text; at the end when nothing follows', () => {
    expect(roles([{ role: 'user', parts: [result('a', 'AA'), { type: 'text', text: 'and now?' }] }])).toEqual(['tool', 'user(1 images)', 'user'])
    expect(roles([{ role: 'tool', parts: [result('a', 'AA')] }])).toEqual(['tool', 'user(1 images)'])
  })

  it('never reach the tool message itself (text only, no stray field)', () => {
    const [tool] = encodeChatRequest({ model: 'm', messages: [{ role: 'tool', parts: [result('a', 'AA')] }] } as CanonicalRequest).messages as Array<Record<string | symbol, unknown>>
    expect(Reflect.ownKeys(tool!)).toEqual(['role', 'tool_call_id', 'content'])
  })
})
