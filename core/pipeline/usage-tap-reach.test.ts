import { describe, expect, it } from 'vitest'
import { tapAndPlain } from '../../test/helpers/tap-and-plain.ts'

/**
 * How far back the usage tap reads: every event, so the newest one that carries usage counts however many
 * data events without a marker, and however many bytes, follow it. The first cases failed when the tap read
 * the last eight data events only, the last ones when it read back 4 KiB.
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

  for (const bytes of [4096, 4097, 64 * 1024]) {
    it(`a usage event ${bytes} bytes before the end or more, then an error event as far back: read as the plain path reads them`, () => {
      const filler = gen('x'.repeat(200))
      const fillers = Array.from({ length: Math.ceil(bytes / filler.length) }, () => filler)
      const error = `data: ${JSON.stringify({ error: { code: 503, message: 'far back', status: 'UNAVAILABLE' } })}\n\n`
      for (const events of [
        [gen('a'), gen('u', 11), ...fillers, gen('', undefined, true)],
        [gen('a'), gen('u', 11), error, ...fillers, gen('', undefined, true)],
      ]) {
        for (const chunks of [[events.join('')], events]) {
          const { fast, plain } = both('generate', chunks)
          expect(plain.usage).toMatchObject({ inputTokens: 11 })
          expect(fast).toEqual(plain)
        }
      }
    })
  }

  it('chat: a usage chunk, then 64 KB of text chunks, then [DONE] and chunks after it', () => {
    const events = [text('a'), chat('[]', usage(7)), ...Array.from({ length: 400 }, (_, i) => text(`b${i}`.repeat(20))), 'data: [DONE]\n\n', chat('[]', usage(9)), ...Array.from({ length: 20 }, () => text('c'))]
    for (const body of [{ stream_options: { include_usage: true } }, {}]) {
      for (const chunks of [[events.join('')], events]) {
        const { fast, plain } = both('chat', chunks, body)
        expect(plain.usage).toMatchObject({ inputTokens: 7 })
        expect(fast).toEqual(plain)
      }
    }
  })
})
