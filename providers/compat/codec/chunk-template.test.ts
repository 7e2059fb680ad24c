import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createChatStreamDecoder } from './stream-decode.ts'
import { ChunkTemplate } from 'model-proxy/kit/codec'

const text = (delta: string) => ({ type: 'text' as const, index: 0, delta })
const data = (content: string, extra = '') => `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]${extra}}`

describe('ChunkTemplate: a chat chunk like the last text chunk but for its content string', () => {
  const key = '"content":"'
  const template = ChunkTemplate.of(data('first'), key, text('first'))!

  it.each([
    ['plain text', data('hello'), 'hello'],
    ['escapes and quotes (through JSON.parse)', data('a "quoted"\nline\t\\ \u2014 \ud83d\ude00'), 'a "quoted"\nline\t\\ \u2014 \ud83d\ude00'],
    ['empty text', data(''), ''],
    ['a text that looks like the template\'s end', data('"},"finish_reason":null}]}'), '"},"finish_reason":null}]}'],
  ])('%s: its text', (_, chunk, expected) => {
    expect(template.delta(chunk)).toBe(expected)
    expect(template.eventWith(expected)).toEqual(text(expected))
  })

  it.each([
    ['a finish reason', data('x').replace('"finish_reason":null', '"finish_reason":"stop"')],
    ['usage', data('x', ',"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}')],
    ['a per-chunk field', data('x', ',"obfuscation":"abc"')],
    ['an unescaped quote that would end the string early', data('x').replace('"content":"x"', '"content":"x"y"')],
    ['a raw control character (invalid JSON)', data('x').replace('"content":"x"', '"content":"x\u0001"')],
    ['another choice', data('x').replace('"index":0', '"index":1')],
  ])('%s: not cut (parsed whole)', (_, chunk) => {
    expect(template.delta(chunk)).toBeUndefined()
  })

  it('no template where the content key is written twice or differently', () => {
    expect(ChunkTemplate.of(data('a', ',"x":{"content":"b"}'), key, text('a'))).toBeUndefined()
    expect(ChunkTemplate.of(data('a').replace('"content":', '"content" :'), key, text('a'))).toBeUndefined()
  })
})

describe('the chat stream decoder gives the same events with and without templates', () => {
  const chunkArb = fc.oneof(
    fc.string({ unit: 'grapheme' }).map(s => data(s)),
    fc.string().map(s => data(s)),
    fc.constant(data('x').replace('"finish_reason":null', '"finish_reason":"stop"')),
    fc.constant(data('', ',"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}')),
    fc.constant(data('x').replace('"delta":{"content":"x"}', '"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{\\"a\\""}}]}')),
    fc.constant(data('x').replace('"delta":{"content":"x"}', '"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}')),
    fc.constant(data('r').replace('"delta":{"content":"r"}', '"delta":{"reasoning_content":"think"}')),
    fc.constant(data('x').replace('"index":0', '"index":1')),
    fc.constant(data('x').replace('"content":"x"', '"content":"x"y"')),
    fc.string().map(s => data(s, `,"obfuscation":${JSON.stringify(s)}`)),
  )
  it('on generated streams', () => {
    fc.assert(fc.property(fc.array(chunkArb, { maxLength: 30 }), (chunks) => {
      const run = (chunkTemplates: boolean) => {
        const decoder = createChatStreamDecoder({ chunkTemplates })
        return [...chunks.flatMap(chunk => decoder.push({ data: chunk })), ...decoder.push({ data: '[DONE]' }), ...decoder.end()]
      }
      expect(run(true)).toEqual(run(false))
    }), { numRuns: 500 })
  })
})
