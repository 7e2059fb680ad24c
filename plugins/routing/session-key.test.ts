import { describe, expect, it } from 'vitest'
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
})
