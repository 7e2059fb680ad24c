import { beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { codecs } from './codecs.ts'
import { requestFixtures, streamFixtures } from './fixtures.ts'
import { projectRequest, projectStream } from './project.ts'
import { createSseParser } from '../../core/framing/sse.ts'
import type { StreamEvent } from '../../core/canonical/types.ts'

// A case that returns before its first expect fails instead of passing.
beforeEach(() => { expect.hasAssertions() })

/** Formats whose wire body has no model field (it travels in the URL). */
const withModel = (format: string, body: Record<string, unknown>) => format === 'generate' ? { ...body, model: 'm' } : body

/** One suite, every codec (unstorage's testDriver pattern). */
describe.each(codecs)('codec $format', (codec) => {
  it.each(requestFixtures)('request round trip keeps what matters: $name', ({ request }) => {
    const wire = codec.request.encode(request)
    const back = codec.request.decode(withModel(codec.format, JSON.parse(JSON.stringify(wire))))
    expect(projectRequest(back)).toEqual(projectRequest(request))
  })

  it.each(streamFixtures)('stream encode -> decode keeps text, tool calls and finish: $name', ({ events }) => {
    const encoder = codec.stream.createEncoder({ model: 'm' })
    let wire = ''
    for (const event of events) wire += encoder.push(event)
    wire += encoder.end()
    const parser = createSseParser()
    const decoder = codec.stream.createDecoder()
    const decoded: StreamEvent[] = []
    for (const sse of [...parser.push(wire), ...parser.end()]) decoded.push(...decoder.push(sse))
    decoded.push(...decoder.end())
    expect(decoded[0]!.type).toBe('start')
    expect(decoded.filter(event => event.type === 'finish')).toHaveLength(1)
    expect(projectStream(decoded)).toEqual(projectStream(events))
  })

  it('response encode -> decode keeps text, tool calls, finish and usage', () => {
    const response = { id: 'r', model: 'm', parts: [{ type: 'text' as const, text: 'Hi' }, { type: 'tool_call' as const, id: 'call_1', name: 'f', arguments: '{"a":1}' }], finishReason: 'tool_calls' as const, usage: { inputTokens: 5, outputTokens: 3 } }
    const back = codec.response.decode(JSON.parse(JSON.stringify(codec.response.encode(response))))
    expect(back.parts.filter(p => p.type !== 'thinking')).toEqual(response.parts)
    expect(back.finishReason).toBe('tool_calls')
    expect(back.usage).toMatchObject({ inputTokens: 5, outputTokens: 3 })
  })

  it('request decode never throws anything but a 400 on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      try {
        expect(codec.request.decode(value)).toMatchObject({ messages: expect.any(Array) })
      } catch (error) {
        expect((error as Error).name).toBe('RequestValidationError')
      }
    }), { numRuns: 300 })
  })

  it('request decode never throws anything but a 400 on request-shaped junk', () => {
    const junk = fc.record({ model: fc.oneof(fc.string(), fc.constant('m')), messages: fc.array(fc.jsonValue()), contents: fc.array(fc.jsonValue()), input: fc.jsonValue(), tools: fc.jsonValue(), system: fc.jsonValue() }, { requiredKeys: [] })
    fc.assert(fc.property(junk, (value) => {
      try {
        expect(codec.request.decode(value)).toMatchObject({ messages: expect.any(Array) })
      } catch (error) {
        expect((error as Error).name).toBe('RequestValidationError')
      }
    }), { numRuns: 300 })
  })

  it('response, error and stream decoders never throw', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.string(), (value, text) => {
      expect(() => {
        codec.response.decode(value)
        codec.error.decode(500, value)
        const decoder = codec.stream.createDecoder()
        decoder.push({ data: JSON.stringify(value) })
        decoder.push({ data: text })
        decoder.end()
      }).not.toThrow()
    }), { numRuns: 300 })
  })

  it('error encode gives a body with the message', () => {
    expect(JSON.stringify(codec.error.encode({ status: 429, message: 'slow down' }))).toContain('slow down')
  })
})

/** Generated conversations: text turns, tool calls and their results, in the order formats allow. */
const word = fc.stringMatching(/^[a-z]{1,12}$/)
const turn = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), user: word, assistant: word }),
  fc.record({ kind: fc.constant('tool' as const), name: word, arg: word, result: word }),
)

describe.each(codecs)('codec $format (generated conversations)', (codec) => {
  it('canonical -> wire -> canonical keeps text, tool calls and results', () => {
    fc.assert(fc.property(fc.array(turn, { minLength: 1, maxLength: 5 }), word, (turns, last) => {
      const messages: import('../../core/canonical/types.ts').Message[] = []
      turns.forEach((t, i) => {
        if (t.kind === 'text') {
          messages.push({ role: 'user', parts: [{ type: 'text', text: t.user }] }, { role: 'assistant', parts: [{ type: 'text', text: t.assistant }] })
        } else {
          messages.push({ role: 'user', parts: [{ type: 'text', text: `use ${t.name}` }] })
          messages.push({ role: 'assistant', parts: [{ type: 'tool_call', id: `call_${i}`, name: t.name, arguments: JSON.stringify({ q: t.arg }) }] })
          messages.push({ role: 'tool', parts: [{ type: 'tool_result', callId: `call_${i}`, name: t.name, content: t.result }] })
        }
      })
      messages.push({ role: 'user', parts: [{ type: 'text', text: last }] })
      const request = { model: 'm', stream: false, maxTokens: 64, messages }
      const back = codec.request.decode(withModel(codec.format, JSON.parse(JSON.stringify(codec.request.encode(request)))))
      expect(projectRequest(back)).toEqual(projectRequest(request))
    }), { numRuns: 150 })
  })
})
