import { describe, expect, it } from 'vitest'
import { tapAndPlain } from '../../test/helpers/tap-and-plain.ts'

/**
 * A chat stream whose first data event is the usage-only chunk (`"choices":[]` with usage), for a client
 * that did not ask for usage: the decoder reading every frame starts the answer on it, so the passthrough,
 * which takes the chunk out, must open the answer there too (and look at it, not the next, for an error).
 * Each case failed before (the passthrough saw no first event: not primed, it failed over).
 */
const chat = (choices: string, usage = 'null') => `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":${choices},"usage":${usage}}\n\n`
const only = chat('[]', '{"prompt_tokens":7,"completion_tokens":8,"total_tokens":15}')
const text = chat('[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]')

describe('chat, usage not asked: a stream that opens with its usage-only chunk', () => {
  for (const [name, events] of [
    ['alone', [only]],
    ['then [DONE]', [only, 'data: [DONE]\n\n']],
    ['after a comment, then the text', [': hi\n\n', only, text, 'data: [DONE]\n\n']],
    ['then an error chunk (no first-event error: the first event was the usage chunk)', [only, 'data: {"error":{"message":"boom"}}\n\n']],
  ] as const) {
    it(`${name}: answered as the plain path answers, in one write or one per event; the client never sees the chunk`, () => {
      for (const chunks of [[events.join('')], [...events]]) {
        const { fast, plain } = tapAndPlain('chat', chunks, {})
        expect(plain.seen.primed).toBe(true)
        expect(fast.seen).toEqual(plain.seen)
        expect(fast.sent).not.toContain('prompt_tokens')
      }
    })
  }
})

describe('chat, usage not asked: a usage-only chunk with more events after it in the same read', () => {
  it('is taken out wherever it is in the read (not only among its last three events), and counts', () => {
    const events = [chat('[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]'), only, ...Array.from({ length: 4 }, () => text), 'data: [DONE]\n\n']
    const { fast, plain } = tapAndPlain('chat', [events.join('')], {})
    expect(fast.seen).toEqual(plain.seen)
    expect(fast.sent).not.toContain('prompt_tokens')
  })
})
