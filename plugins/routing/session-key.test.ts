import { describe, expect, it } from 'vitest'
import { ClientBody } from 'model-proxy/kit/body'
import { sessionKeyOf, sessionOfUserId, stablePrefix } from './session-key.ts'

const key = (body: Record<string, unknown>, headers: Record<string, string> = {}, inbound: 'chat' | 'messages' | 'responses' | 'generate' = 'chat') =>
  sessionKeyOf({ body, inbound, model: 'm', headers: new Headers(headers) })

describe('session keys', () => {
  it.each([
    [{ 'x-claude-code-session-id': 's1' }, {}, 'x-claude-code-session-id'],
    [{ 'session-id': 's2', 'thread-id': 't' }, {}, 'session-id'],
    [{ 'x-proxy-ws-connection': 'peer' }, {}, 'websocket'],
    [{}, { prompt_cache_key: 'pck' }, 'prompt_cache_key'],
    [{}, { metadata: { user_id: 'u' } }, 'metadata.user_id'],
  ])('%j %j -> %s', (headers, body, source) => expect(key({ messages: [], ...body }, headers)?.source).toBe(source))

  it('Claude Code user ids name the session', () => {
    expect(sessionOfUserId('{"device_id":"d","session_id":"abc"}')).toBe('abc')
    expect(sessionOfUserId('user_x_account_y_session_5f1e-2')).toBe('5f1e-2')
    expect(sessionOfUserId('plain')).toBe('plain')
  })

  it('a single-turn request has no session; a multi-turn one is keyed by its prefix, the same on every later turn', () => {
    expect(key({ messages: [{ role: 'user', content: 'hi' }] })).toBeUndefined()
    const turn2 = key({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }, { role: 'user', content: 'more' }] })
    const turn3 = key({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }, { role: 'user', content: 'more' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'end' }] })
    expect(turn2?.source).toBe('prefix')
    expect(turn3?.key).toBe(turn2?.key)
    expect(key({ messages: [{ role: 'system', content: 'other' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }] })?.key).not.toBe(turn2?.key)
  })

  it.each([
    ['messages', { system: 's', messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }],
    ['responses', { instructions: 'i', input: [{ role: 'user', content: 'a' }, { type: 'function_call', name: 'f' }] }],
    ['generate', { contents: [{ role: 'user', parts: [] }, { role: 'model', parts: [] }] }],
  ] as const)('%s conversations have a prefix once answered', (format, body) => {
    expect(stablePrefix(format, body)).toBeTypeOf('string')
  })

  describe('from the client\'s bytes (the body is not parsed for it)', () => {
    const bytes = (body: object, space?: number) => new ClientBody(Buffer.from(JSON.stringify(body, null, space)))
    const turns = [{ role: 'system', content: 's' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }, { role: 'user', content: 'more' }]
    const more = [...turns, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'end' }]

    it.each([
      ['chat', { messages: turns }, { messages: more }, { messages: [{ role: 'system', content: 'other' }, ...turns.slice(1)] }],
      ['messages', { system: 's', messages: turns.slice(1) }, { system: 's', messages: more.slice(1) }, { system: 'other', messages: turns.slice(1) }],
      ['responses', { instructions: 'i', input: turns.slice(1) }, { instructions: 'i', input: more.slice(1) }, { instructions: 'j', input: turns.slice(1) }],
      ['generate', { systemInstruction: { parts: [] }, contents: [{ role: 'user', parts: [{ text: 'a' }] }, { role: 'model', parts: [] }] }, { systemInstruction: { parts: [] }, contents: [{ role: 'user', parts: [{ text: 'a' }] }, { role: 'model', parts: [] }, { role: 'user', parts: [] }] }, { contents: [{ role: 'user', parts: [{ text: 'a' }] }, { role: 'model', parts: [] }] }],
    ] as const)('%s: the same prefix on every later turn, another for another conversation, and none for a first turn', (format, first, later, other) => {
      const prefix = stablePrefix(format, bytes(first))
      expect(prefix).toBeTypeOf('string')
      expect(stablePrefix(format, bytes(later))).toBe(prefix)
      expect(stablePrefix(format, bytes(other))).not.toBe(prefix)
      const list = format === 'responses' ? 'input' : format === 'generate' ? 'contents' : 'messages'
      const firstTurn = { ...first, [list]: (first as Record<string, unknown[]>)[list]!.filter(item => (item as { role: string }).role !== 'assistant' && (item as { role: string }).role !== 'model').slice(0, 1) }
      expect(stablePrefix(format, bytes(firstTurn))).toBeUndefined()
    })

    it('reads the bytes as written even once the body is parsed (one conversation, one key), and never parses them', () => {
      const body = bytes({ messages: more }, 1)
      const before = key({}, {}, 'chat')
      expect(before).toBeUndefined()
      const unparsed = sessionKeyOf({ body: {}, clientBody: body, inbound: 'chat', model: 'm', headers: new Headers() })
      expect(body.parsed).toBe(false)
      body.object()
      expect(sessionKeyOf({ body: {}, clientBody: body, inbound: 'chat', model: 'm', headers: new Headers() })).toEqual(unparsed)
      expect(unparsed?.source).toBe('prefix')
    })
  })
})
