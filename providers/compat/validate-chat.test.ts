import { describe, expect, it } from 'vitest'
import { validateChatRequest } from './validate-chat.ts'
import { RequestValidationError } from 'model-proxy'

const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] }

describe('validateChatRequest', () => {
  it('accepts a plain request', () => {
    expect(() => validateChatRequest(base)).not.toThrow()
  })

  it.each([
    [{ messages: [] }, 'messages'],
    [{ messages: [{ content: 'x' }] }, 'messages[0].role'],
    [{ temperature: 2.5 }, 'temperature'],
    [{ temperature: -0.1 }, 'temperature'],
    [{ presence_penalty: 3 }, 'presence_penalty'],
    [{ frequency_penalty: -2.1 }, 'frequency_penalty'],
    [{ stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    [{ stop: 5 }, 'stop'],
    [{ n: 0 }, 'n'],
    [{ tools: [{ name: 'x' }] }, 'tools[0].type'],
    [{ tools: [{ type: 'function', function: {} }] }, 'tools[0].function.name'],
  ])('%j -> 400 naming %s', (patch, param) => {
    try {
      validateChatRequest({ ...base, ...patch })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(RequestValidationError)
      expect((error as RequestValidationError).param).toBe(param)
      expect((error as Error).message).toContain(param.split('[')[0])
    }
  })

  // Roles and tool types this proxy does not know may be the vendor's newest: the same-format path passes them on.
  it.each([[{ messages: [{ role: 'wizard', content: 'x' }] }], [{ tools: [{ type: 'custom', custom: { name: 'grep' } }] }]])('passes what it does not know %j', (patch) => {
    expect(() => validateChatRequest({ ...base, ...patch })).not.toThrow()
  })

  it.each([[{ temperature: 0 }], [{ temperature: 2 }], [{ stop: 'x' }], [{ stop: ['a', 'b', 'c', 'd'] }], [{ presence_penalty: -2 }]])('accepts the bounds %j', (patch) => {
    expect(() => validateChatRequest({ ...base, ...patch })).not.toThrow()
  })
})
