import { describe, expect, it } from 'vitest'
import type { CanonicalResponse } from 'model-proxy'
import { decodeResponse } from './response-decode.ts'
import { encodeResponse } from './response-encode.ts'

const usageWire = { input_tokens: 100, input_tokens_details: { cached_tokens: 40 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 20 }, total_tokens: 130 }
const usage = { inputTokens: 100, outputTokens: 30, totalTokens: 130, cachedInputTokens: 40, reasoningTokens: 20 }

const wire = {
  id: 'resp_1', object: 'response', created_at: 1763980000, status: 'completed', error: null, incomplete_details: null, model: 'gpt-5.1',
  output: [
    { id: 'rs_resp_1_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'ENC' },
    { id: 'msg_resp_1_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello', annotations: [] }, { type: 'output_text', text: ' there', annotations: [] }] },
    { id: 'fc_resp_1_2', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"x":1}', status: 'completed' },
  ],
  usage: usageWire,
}
const canonical: CanonicalResponse = {
  id: 'resp_1', model: 'gpt-5.1', created: 1763980000, finishReason: 'tool_calls', usage,
  parts: [
    { type: 'thinking', text: 'thinking', signature: 'ENC', origin: 'responses' },
    { type: 'text', text: 'Hello' },
    { type: 'text', text: ' there' },
    { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"x":1}' },
  ],
}

describe('response decode', () => {
  it('maps reasoning, message parts, function calls and usage', () => {
    expect(decodeResponse(wire)).toEqual(canonical)
  })

  it.each<[string, Record<string, unknown>, Partial<CanonicalResponse>]>([
    ['completed text is stop', { status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'a' }] }] }, { finishReason: 'stop', parts: [{ type: 'text', text: 'a' }] }],
    ['max_output_tokens is length', { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] }, { finishReason: 'length' }],
    ['content_filter', { status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [] }, { finishReason: 'content_filter' }],
    ['refusal is text', { status: 'completed', output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] }] }, { parts: [{ type: 'text', text: 'No.' }] }],
    ['built-in tool items other than web search are left out', { status: 'completed', output: [{ type: 'file_search_call', id: 'fs', status: 'completed' }] }, { parts: [], finishReason: 'stop' }],
    ['a web search call is a web search part', { status: 'completed', output: [{ type: 'web_search_call', id: 'ws', status: 'completed' }] }, { parts: [{ type: 'web_search', id: 'ws', sources: [], origin: 'responses' }], finishReason: 'stop' }],
    ['a final stream event is unwrapped', { type: 'response.completed', response: { id: 'resp_9', object: 'response', status: 'completed', output: [] } }, { id: 'resp_9' }],
  ])('%s', (_name, body, expected) => {
    expect(decodeResponse(body)).toMatchObject(expected)
  })

  it.each([null, 'text', 42, [], { output: 'nope', usage: 'x' }, { output: [null, 1, { type: 'message', content: [null] }] }])('never throws on %j', body => {
    expect(decodeResponse(body)).toMatchObject({ parts: [], finishReason: 'stop' })
  })
})

describe('response encode', () => {
  it('builds the response object with stable item ids', () => {
    expect(encodeResponse(canonical)).toEqual({
      ...wire,
      output: [
        { id: 'rs_1_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'ENC' },
        { ...wire.output[1], id: 'msg_1_1' },
        { ...wire.output[2], id: 'fc_1_2' },
      ],
    })
  })

  it.each<[CanonicalResponse['finishReason'], string, unknown]>([
    ['stop', 'completed', null],
    ['tool_calls', 'completed', null],
    ['length', 'incomplete', { reason: 'max_output_tokens' }],
    ['content_filter', 'incomplete', { reason: 'content_filter' }],
  ])('%s -> status %s', (finishReason, status, details) => {
    const body = encodeResponse({ id: 'x', model: 'm', parts: [{ type: 'text', text: 'a' }], finishReason })
    expect(body).toMatchObject({ id: 'resp_x', status, incomplete_details: details, usage: null })
    expect((body.output as Array<Record<string, unknown>>)[0].status).toBe(status)
  })

  it('fills usage details the canonical usage lacks and leaves out images', () => {
    const body = encodeResponse({ id: 'resp_2', model: 'm', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 7 }, parts: [{ type: 'image', url: 'https://x.test/i.png' }, { type: 'text', text: 'a' }] })
    expect(body.usage).toEqual({ input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 })
    expect(body.output).toHaveLength(1)
  })

  it('round trips canonical -> wire -> canonical', () => {
    expect(decodeResponse(encodeResponse(canonical))).toEqual(canonical)
  })
})
