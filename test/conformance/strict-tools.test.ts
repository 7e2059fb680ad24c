import { describe, expect, it } from 'vitest'
import { translate } from './unknown-inserts.ts'

// A strict function tool (calls must match the schema exactly): chat `function.strict`, responses and
// messages `strict`. It reached no other format (responses got `strict: false`, unnamed); now chat and
// responses carry it, and toward messages and generateContent, which take no strict tools here, it is named.
const tool = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }
const bodies = {
  chat: { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: tool, strict: true } }] },
  responses: { model: 'm', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: tool, strict: true }] },
  messages: { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f', input_schema: tool, strict: true }] },
} as const

describe('a strict function tool', () => {
  it.each([
    ['chat', 'responses', (body: any) => body.tools[0].strict, 'tools.function.strict'],
    ['responses', 'chat', (body: any) => body.tools[0].function.strict, 'tools.strict'],
    ['messages', 'chat', (body: any) => body.tools[0].function.strict, 'tools.strict'],
    ['messages', 'responses', (body: any) => body.tools[0].strict, 'tools.strict'],
  ] as const)('%s -> %s: carried, not named', (client, upstream, strictOf, name) => {
    const out = translate(structuredClone(bodies[client]) as never, client, upstream)
    expect(strictOf(out.upstream)).toBe(true)
    expect(out.dropped).not.toContain(name)
  })

  it.each([
    ['chat', 'messages', 'tools.function.strict'],
    ['chat', 'generate', 'tools.function.strict'],
    ['responses', 'messages', 'tools.strict'],
    ['messages', 'generate', 'tools.strict'],
  ] as const)('%s -> %s: named', (client, upstream, name) => {
    const out = translate(structuredClone(bodies[client]) as never, client, upstream)
    expect(out.dropped).toContain(name)
    expect(out.text).not.toContain('"strict":true')
  })

  it('strict: false is no loss anywhere', () => {
    const body = { ...bodies.chat, tools: [{ type: 'function', function: { name: 'f', parameters: tool, strict: false } }] }
    for (const upstream of ['responses', 'messages', 'generate'] as const) expect(translate(body as never, 'chat', upstream).dropped).toEqual([])
  })
})
