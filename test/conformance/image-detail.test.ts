import { describe, expect, it } from 'vitest'
import { translate } from './unknown-inserts.ts'

// An image's resolution (`detail: low | high`): chat `image_url.detail` and responses `input_image.detail`.
// It reached neither (responses always got `auto`); now it is carried between them, and named toward
// messages and generateContent, whose images have no such level.
const url = 'https://example.test/a.png'
const bodies = {
  chat: { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url, detail: 'low' } }] }] },
  responses: { model: 'm', input: [{ role: 'user', content: [{ type: 'input_text', text: 'see' }, { type: 'input_image', image_url: url, detail: 'low' }] }] },
} as const

describe('an image detail level', () => {
  it('chat -> responses: carried', () => {
    const out = translate(structuredClone(bodies.chat) as never, 'chat', 'responses')
    expect((out.upstream.input as any)[0].content[1]).toEqual({ type: 'input_image', image_url: url, detail: 'low' })
    expect(out.dropped).toEqual([])
  })

  it('responses -> chat: carried', () => {
    const out = translate(structuredClone(bodies.responses) as never, 'responses', 'chat')
    expect((out.upstream.messages as any)[0].content[1]).toEqual({ type: 'image_url', image_url: { url, detail: 'low' } })
    expect(out.dropped).toEqual([])
  })

  it.each([
    ['chat', 'messages', 'image_url.detail'], ['chat', 'generate', 'image_url.detail'],
    ['responses', 'messages', 'input_image.detail'], ['responses', 'generate', 'input_image.detail'],
  ] as const)('%s -> %s: named', (client, upstream, name) => {
    expect(translate(structuredClone(bodies[client]) as never, client, upstream).dropped).toContain(name)
  })

  it('auto asks for nothing: not named, and chat gets no detail key', () => {
    const body = { ...bodies.responses, input: [{ role: 'user', content: [{ type: 'input_image', image_url: url, detail: 'auto' }] }] }
    const out = translate(body as never, 'responses', 'chat')
    expect((out.upstream.messages as any)[0].content[0]).toEqual({ type: 'image_url', image_url: { url } })
    expect(translate(body as never, 'responses', 'messages').dropped).toEqual([])
  })
})
