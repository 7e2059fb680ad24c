import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RequestValidationError, type CanonicalRequest, type Message, type Part, type StreamEvent } from 'model-proxy'
import { decodeError } from './error.ts'
import { decodeRequest } from './request-decode.ts'
import { encodeRequest } from './request-encode.ts'
import { decodeResponse } from './response-decode.ts'
import { createStreamDecoder } from './stream-decode.ts'
import { createStreamEncoder } from './stream-encode.ts'
import { parseSse } from './test-utils.ts'

/** Request-shaped JSON: a model, input items of every known type with random fields, random extras. */
const item = fc.oneof(
  fc.record({ type: fc.constantFrom('message', undefined), role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool'), fc.jsonValue()), content: fc.oneof(fc.string(), fc.array(fc.oneof(fc.record({ type: fc.constantFrom('input_text', 'output_text', 'input_image', 'input_file', 'refusal', 'x'), text: fc.jsonValue(), image_url: fc.oneof(fc.string(), fc.constant('data:image/png;base64,AA==')) }, { requiredKeys: [] }), fc.jsonValue())), fc.jsonValue()) }, { requiredKeys: [] }),
  fc.record({ type: fc.constant('function_call'), call_id: fc.oneof(fc.string(), fc.jsonValue()), name: fc.oneof(fc.string(), fc.jsonValue()), arguments: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('function_call_output'), call_id: fc.oneof(fc.string(), fc.jsonValue()), output: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('reasoning'), summary: fc.jsonValue(), encrypted_content: fc.jsonValue() }, { requiredKeys: ['type'] }),
  fc.jsonValue(),
)
const requestLike = fc.record({
  model: fc.oneof(fc.string(), fc.jsonValue()),
  input: fc.oneof(fc.string(), fc.array(item), fc.jsonValue()),
  instructions: fc.oneof(fc.string(), fc.jsonValue()),
  tools: fc.oneof(fc.array(fc.record({ type: fc.constantFrom('function', 'web_search'), name: fc.jsonValue(), parameters: fc.jsonValue() }, { requiredKeys: [] })), fc.jsonValue()),
  tool_choice: fc.jsonValue(), temperature: fc.jsonValue(), top_p: fc.jsonValue(), max_output_tokens: fc.jsonValue(),
  reasoning: fc.oneof(fc.record({ effort: fc.oneof(fc.constantFrom('low', 'constructor', '__proto__'), fc.jsonValue()), summary: fc.jsonValue() }, { requiredKeys: [] }), fc.jsonValue()),
  text: fc.oneof(fc.record({ format: fc.jsonValue() }), fc.jsonValue()),
  stream: fc.jsonValue(), __proto__: fc.jsonValue(), store: fc.jsonValue(),
}, { requiredKeys: [] })

function decodesOrRejects(body: unknown): void {
  try {
    decodeRequest(body)
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error
  }
}

describe('decoders never throw anything but RequestValidationError', () => {
  it('request.decode on any JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), decodesOrRejects), { numRuns: 500 })
  })

  it('request.decode on request-shaped JSON', () => {
    fc.assert(fc.property(requestLike, decodesOrRejects), { numRuns: 1000 })
  })

  it('response.decode and error.decode never throw', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.integer({ min: 100, max: 599 }), (body, status) => {
      decodeResponse(body)
      decodeResponse({ status: 'completed', output: [body], usage: body })
      expect(decodeError(status, body).status).toBe(status)
      expect(typeof decodeError(status, JSON.stringify(body)).message).toBe('string')
    }), { numRuns: 500 })
  })

  it('stream decoder never throws and emits at most one finish or error', () => {
    const type = fc.constantFrom('response.created', 'response.output_item.added', 'response.output_item.done', 'response.output_text.delta', 'response.output_text.done',
      'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta',
      'response.completed', 'response.incomplete', 'response.failed', 'error', 'other')
    const event = fc.oneof(
      fc.record({ type, output_index: fc.oneof(fc.nat(3), fc.jsonValue()), content_index: fc.nat(2), summary_index: fc.nat(2), delta: fc.jsonValue(), text: fc.jsonValue(), arguments: fc.jsonValue(), item: fc.jsonValue(), response: fc.jsonValue() }, { requiredKeys: ['type'] })
        .map(data => ({ event: data.type, data: JSON.stringify(data) })),
      fc.record({ event: fc.option(fc.string(), { nil: undefined }), data: fc.string() }),
    )
    fc.assert(fc.property(fc.array(event, { maxLength: 30 }), events => {
      const decoder = createStreamDecoder()
      const out = [...events.flatMap(e => decoder.push(e)), ...decoder.end()]
      expect(out.filter(e => e.type === 'start')).toHaveLength(out.some(e => e.type !== 'error') ? 1 : 0)
      expect(out.filter(e => e.type === 'finish' || e.type === 'error')).toHaveLength(1)
      expect(['finish', 'error']).toContain(out.at(-1)!.type)
    }), { numRuns: 1000 })
  })
})

/** Canonical conversations made of the parts every format must carry: text, images, tool calls, tool results. */
const text = fc.string().map((t): Part => ({ type: 'text', text: t }))
const image = fc.oneof(
  fc.record({ mediaType: fc.constantFrom('image/png', 'image/jpeg'), data: fc.base64String({ minLength: 4 }) }).map((i): Part => ({ type: 'image', ...i })),
  fc.webUrl().map((url): Part => ({ type: 'image', url })),
)
const id = fc.stringMatching(/^call_[A-Za-z0-9]{1,12}$/)
const call = fc.record({ id, name: fc.stringMatching(/^[a-z_]{1,10}$/), arguments: fc.json() }).map((c): Part => ({ type: 'tool_call', ...c }))
const result = fc.record({ callId: id, content: fc.oneof(fc.string(), fc.array(fc.oneof(text, image) as fc.Arbitrary<Part & { type: 'text' | 'image' }>, { minLength: 1, maxLength: 3 })) })
  .map((r): Part => ({ type: 'tool_result', ...r }))
const message = fc.oneof(
  fc.array(fc.oneof(text, image), { minLength: 1, maxLength: 3 }).map((parts): Message => ({ role: 'user', parts })),
  fc.array(fc.oneof(text, call), { minLength: 1, maxLength: 3 }).map((parts): Message => ({ role: 'assistant', parts })),
  fc.array(result, { minLength: 1, maxLength: 2 }).map((parts): Message => ({ role: 'tool', parts })),
)

/** What survives: the sequence of (role, part), tool results without the name the decoder adds, text-only results as one string. */
function flatten(messages: Message[]) {
  return messages.flatMap(m => m.parts.map(part => {
    if (part.type !== 'tool_result') return { role: m.role, part }
    const content = typeof part.content !== 'string' && part.content.every(p => p.type === 'text')
      ? part.content.map(p => (p.type === 'text' ? p.text : '')).join('\n')
      : part.content
    return { role: m.role, part: { type: part.type, callId: part.callId, content } }
  }))
}

describe('canonical -> wire -> canonical', () => {
  it('keeps text, images, tool calls and tool results in order', () => {
    fc.assert(fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), messages => {
      const request: CanonicalRequest = { model: 'm', messages, stream: false }
      expect(flatten(decodeRequest(encodeRequest(request)).messages)).toEqual(flatten(messages))
    }), { numRuns: 500 })
  })

  it('stream: text and tool calls survive encoder -> decoder', () => {
    const block = fc.oneof(
      fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 4 }).map(deltas => ({ kind: 'text' as const, deltas })),
      fc.record({ id, name: fc.stringMatching(/^[a-z]{1,8}$/), deltas: fc.array(fc.string({ minLength: 1 }), { maxLength: 4 }) }).map(c => ({ kind: 'tool' as const, ...c })),
    )
    fc.assert(fc.property(fc.array(block, { minLength: 1, maxLength: 5 }), blocks => {
      const events: StreamEvent[] = [{ type: 'start', id: 'resp_p', model: 'm' }]
      // A call without arguments comes back with an empty object of them.
      const expected: StreamEvent[] = [...events]
      blocks.forEach((b, index) => {
        const block: StreamEvent[] = b.kind === 'tool' ? [{ type: 'tool_call_start', index, id: b.id, name: b.name }] : []
        for (const delta of b.deltas) block.push(b.kind === 'text' ? { type: 'text', index, delta } : { type: 'tool_call_delta', index, delta })
        events.push(...block)
        expected.push(...block)
        if (b.kind === 'tool' && !b.deltas.length) expected.push({ type: 'tool_call_delta', index, delta: '{}' })
      })
      events.push({ type: 'finish', reason: blocks.some(b => b.kind === 'tool') ? 'tool_calls' : 'stop' })
      expected.push(events.at(-1)!)
      const encoder = createStreamEncoder({ model: 'm' })
      const wire = events.map(e => encoder.push(e)).join('')
      const decoder = createStreamDecoder()
      const back = [...parseSse(wire).flatMap(e => decoder.push(e)), ...decoder.end()]
      // Calls after the first in a row arrive whole (core/canonical/tool-call-order.ts): compare joined deltas.
      expect(joinDeltas(back)).toEqual(joinDeltas(expected))
    }), { numRuns: 300 })
  })
})

/** Consecutive deltas of one block as one. */
function joinDeltas(events: StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = []
  for (const event of events) {
    const last = out.at(-1)
    if (last && (last.type === 'text' || last.type === 'tool_call_delta') && last.type === event.type && last.index === event.index) out[out.length - 1] = { ...last, delta: last.delta + event.delta }
    else out.push(event)
  }
  return out
}
