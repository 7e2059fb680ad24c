import { describe, expect, it } from 'vitest'
import type { StreamEvent } from 'model-proxy'
import { createGenerateStreamDecoder } from './stream-decode.ts'
import { createGenerateStreamEncoder } from './stream-encode.ts'

const text = (index: number, value: string, finishReason?: string) => ({ content: { role: 'model', parts: [{ text: value }] }, index, ...(finishReason && { finishReason }) })

describe('generateContent streams with candidateCount > 1', () => {
  it('decode: each candidate keeps its own runs and finish reason', () => {
    const decoder = createGenerateStreamDecoder()
    const chunks = [[text(0, 'A'), text(1, 'B')], [text(1, 'b', 'MAX_TOKENS')], [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] }, index: 0, finishReason: 'STOP' }]]
    const out = [...chunks.flatMap(candidates => decoder.push({ data: JSON.stringify({ candidates }) })), ...decoder.end()].filter(event => event.type !== 'start')
    expect(out).toEqual([
      { type: 'text', index: 0, delta: 'A' }, { type: 'text', index: 1, delta: 'B', choice: 1 }, { type: 'text', index: 1, delta: 'b', choice: 1 },
      { type: 'tool_call_start', index: 2, id: expect.any(String), name: 'f' }, { type: 'tool_call_delta', index: 2, delta: '{}' },
      { type: 'finish', reason: 'tool_calls', choices: ['tool_calls', 'length'] },
    ])
  })

  it('encode: parts go under their candidate index; the closing chunk names every finish reason', () => {
    const encoder = createGenerateStreamEncoder({ model: 'm' })
    const events: StreamEvent[] = [{ type: 'text', index: 0, delta: 'A' }, { type: 'text', index: 1, delta: 'B', choice: 1 }, { type: 'finish', reason: 'stop', choices: ['stop', 'length'] }]
    const chunks = events.map(event => encoder.push(event)).join('').split('\n\n').filter(Boolean).map(frame => JSON.parse(frame.slice(6)))
    expect(chunks.map(chunk => chunk.candidates.map((c: any) => [c.index, c.content.parts.map((p: any) => p.text).join(''), c.finishReason]))).toEqual([
      [[0, 'A', undefined]], [[1, 'B', undefined]], [[0, '', 'STOP'], [1, '', 'MAX_TOKENS']],
    ])
  })
})
