import { describe, expect, it } from 'vitest'
import { translate } from './unknown-inserts.ts'

// Fields one client format has and another can carry, mapped instead of dropped.
//
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

// `top_k` is no OpenAI parameter, but compatible servers take it and their clients (opencode) send it.
describe("a chat client's top_k", () => {
  const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], top_k: 40 }
  it.each([['messages', (b: any) => b.top_k], ['generate', (b: any) => b.generationConfig?.topK]] as const)('-> %s: carried, not named', (upstream, topK) => {
    const out = translate(structuredClone(body) as never, 'chat', upstream)
    expect(topK(out.upstream)).toBe(40)
    expect(out.dropped).not.toContain('top_k')
  })
  it('-> responses: named', () => {
    expect(translate(structuredClone(body) as never, 'chat', 'responses').dropped).toEqual(['top_k'])
  })
})
