import { describe, expect, it } from 'vitest'
import { tapAndPlain } from '../../test/helpers/tap-and-plain.ts'

/**
 * Keys and type names spelled with `\u00XX` escapes: JSON.parse reads `"\u0075sage"` as `usage`, so the
 * decoder reading every frame does, where the markers' byte patterns do not match. Each case failed before.
 */
const chat = (choices: string, usage = 'null') => `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":${choices},"usage":${usage}}\n\n`
const role = chat('[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]')
const stop = chat('[{"index":0,"delta":{},"finish_reason":"stop"}]')
const usage = '{"prompt_tokens":7,"completion_tokens":8,"total_tokens":15}'

describe('usage tap: keys spelled with escapes', () => {
  it('chat: the usage chunk\'s `"\\u0075sage"`, usage asked or not, one write or one per event; the client that did not ask never sees it', () => {
    const events = [role, stop, chat('[]', usage).replace('"usage"', '"\\u0075sage"'), 'data: [DONE]\n\n']
    for (const body of [{ stream_options: { include_usage: true } }, {}]) {
      for (const chunks of [[events.join('')], events]) {
        const { fast, plain } = tapAndPlain('chat', chunks, body)
        expect(plain.seen).toMatchObject({ usage: { inputTokens: 7 } })
        expect(fast.seen).toEqual(plain.seen)
      }
    }
    const escapedChoices = [role, stop, chat('[]', usage).replace('"choices"', '"\\u0063hoices"'), 'data: [DONE]\n\n']
    const { fast, plain } = tapAndPlain('chat', escapedChoices, {})
    expect(fast.seen).toEqual(plain.seen)
    expect(fast.sent).not.toContain('prompt_tokens')
  })

  it('chat: usage spelled with escapes in a text chunk, twelve text chunks after it: read as the end reads back to usage', () => {
    const text = (t: string) => chat(`[{"index":0,"delta":{"content":"${t}"},"finish_reason":null}]`)
    const events = [role, chat('[{"index":0,"delta":{"content":"u"},"finish_reason":null}]', usage).replace('"usage"', '"\\u0075sage"'), ...Array.from({ length: 12 }, (_, i) => text(`t${i}`)), stop, 'data: [DONE]\n\n']
    for (const chunks of [[events.join('')], events]) {
      const { fast, plain } = tapAndPlain('chat', chunks)
      expect(plain.seen).toMatchObject({ usage: { inputTokens: 7 } })
      expect(fast.seen).toEqual(plain.seen)
    }
  })

  it('messages: message_start and message_delta named `"message_\\u0073tart"`, `"message_\\u0064elta"` (no event line)', () => {
    const start = 'data: {"type":"message_\\u0073tart","message":{"id":"m","model":"m","usage":{"input_tokens":9,"output_tokens":1}}}\n\n'
    const delta = 'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}\n\n'
    const end = 'data: {"type":"message_\\u0064elta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":30}}\n\ndata: {"type":"message_stop"}\n\n'
    const { fast, plain } = tapAndPlain('messages', [start, delta, end])
    expect(plain.seen).toMatchObject({ usage: { inputTokens: 9, outputTokens: 30 } })
    expect(fast.seen).toEqual(plain.seen)
  })

  it('generateContent: the newest running total escaped, an older one not: the newest counts', () => {
    const gen = (n: number, key = 'usageMetadata', finish = false) => `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"t"}]},"index":0${finish ? ',"finishReason":"STOP"' : ''}}],"${key}":{"promptTokenCount":${n},"candidatesTokenCount":1,"totalTokenCount":${n + 1}}}\n\n`
    const { fast, plain } = tapAndPlain('generate', [gen(3), gen(4), gen(5, '\\u0075sageMetadata', true)])
    expect(plain.seen).toMatchObject({ usage: { inputTokens: 5 } })
    expect(fast.seen).toEqual(plain.seen)
  })

  it('chat: an error chunk `{"\\u0065rror": ...}` at the end fails the answer on both paths', () => {
    const { fast, plain } = tapAndPlain('chat', [role, 'data: {"\\u0065rror":{"message":"boom"}}\n\n'])
    expect(plain.seen).toMatchObject({ error: 'boom' })
    expect(fast.seen).toEqual(plain.seen)
  })

  it('messages: a ping spelled `"\\u0070ing"` opens no answer, as the decoder reads it as a ping', () => {
    const { fast, plain } = tapAndPlain('messages', ['event: ping\ndata: {"type":"\\u0070ing"}\n\n'])
    expect(plain.seen).toEqual({ primed: false })
    expect(fast.seen).toEqual(plain.seen)
  })
})
