import { describe, expect, it } from 'vitest'
import { tapAndPlain } from '../../test/helpers/tap-and-plain.ts'
import { tailBytes } from './usage-tap.ts'

/**
 * How far back the usage tap reads at a stream's end: as far as the newest event that carries usage,
 * however many data events without a marker follow it, within the last `tailBytes` bytes. Each case
 * failed before (the tap read the last eight data events only).
 */
const both = (format: string, chunks: string[], body?: object) => {
  const { fast, plain } = tapAndPlain(format, chunks, body)
  return { fast: fast.seen, plain: plain.seen }
}

const gen = (text: string, usage?: number, finish = false) => `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(finish && { finishReason: 'STOP' }) }], ...(usage !== undefined && { usageMetadata: { promptTokenCount: usage, candidatesTokenCount: 2, totalTokenCount: usage + 2 } }) })}\n\n`
const chat = (choices: string, usage = 'null') => `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":${choices},"usage":${usage}}\n\n`
const text = (t: string) => chat(`[{"index":0,"delta":{"content":${JSON.stringify(t)}},"finish_reason":null}]`)
const usage = (n: number) => `{"prompt_tokens":${n},"completion_tokens":${n + 1},"total_tokens":${2 * n + 1}}`

describe('usage tap: usage followed by many data events without a marker', () => {
  for (const after of [8, 9, 20]) {
    it(`generateContent: usageMetadata then ${after} chunks without it, then the finish (one write, or one per event)`, () => {
      const events = [...Array.from({ length: 5 }, (_, i) => gen(`a${i}`)), gen('u', 11), ...Array.from({ length: after }, (_, i) => gen(`b${i}`)), gen('', undefined, true)]
      for (const chunks of [[events.join('')], events]) {
        const { fast, plain } = both('generate', chunks)
        expect(plain.usage).toMatchObject({ inputTokens: 11 })
        expect(fast).toEqual(plain)
      }
    })

    it(`chat, usage asked or not: the usage chunk, then ${after} text chunks, the finish and [DONE]`, () => {
      const events = [text('a'), ...Array.from({ length: 5 }, (_, i) => text(`a${i}`)), chat('[]', usage(7)), ...Array.from({ length: after }, (_, i) => text(`b${i}`)), chat('[{"index":0,"delta":{},"finish_reason":"stop"}]'), 'data: [DONE]\n\n']
      for (const body of [{ stream_options: { include_usage: true } }, {}]) {
        for (const chunks of [[events.join('')], events]) {
          const { fast, plain } = both('chat', chunks, body)
          expect(plain.usage).toMatchObject({ inputTokens: 7 })
          expect(fast).toEqual(plain)
        }
      }
    })
  }

  it(`the bound: a usage event that starts ${tailBytes} bytes before the end is read, one a byte further back is not`, () => {
    const tail = (bytes: number) => {
      // Chunks without usage making up exactly `bytes` bytes after the usage event's start.
      const usageEvent = gen('u', 11)
      const finish = gen('', undefined, true)
      const filler = gen('x'.repeat(200))
      let rest = bytes - usageEvent.length - finish.length
      const events: string[] = []
      while (rest >= filler.length + gen('').length) { events.push(filler); rest -= filler.length }
      events.push(gen('y'.repeat(rest - gen('').length)))
      return [...Array.from({ length: 5 }, (_, i) => gen(`a${i}`)), usageEvent, ...events, finish]
    }
    const at = tail(tailBytes)
    expect(at.slice(5).join('').length).toBe(tailBytes)
    for (const chunks of [[at.join('')], at]) {
      const { fast, plain } = both('generate', chunks)
      expect(fast).toEqual(plain)
    }
    const beyond = tail(tailBytes + 1)
    const { fast, plain } = both('generate', beyond)
    expect(plain.usage).toMatchObject({ inputTokens: 11 })
    // Documented: beyond the reach the tap finds no usage (the answer is settled on an estimate).
    expect(fast.usage).toBeUndefined()
  })
})
