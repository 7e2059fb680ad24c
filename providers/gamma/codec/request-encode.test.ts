import { describe, expect, it } from 'vitest'
import type { CanonicalRequest, Message } from 'model-proxy'
import { decodeRequest } from './request-decode.ts'
import { encodeRequest } from './request-encode.ts'

const request = (fields: Partial<CanonicalRequest>): CanonicalRequest => ({ model: 'gpt-5.1', messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }], stream: false, ...fields })
const hi = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }]

describe('request encode: messages', () => {
  it.each<[string, Message[], Record<string, unknown>]>([
    ['leading system messages join as instructions', [
      { role: 'system', parts: [{ type: 'text', text: 'A' }] },
      { role: 'system', parts: [{ type: 'text', text: 'B' }] },
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    ], { instructions: 'A\n\nB', input: hi }],
    ['later system messages are developer items', [
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      { role: 'system', parts: [{ type: 'text', text: 'Now be terse.' }] },
    ], { input: [...hi, { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Now be terse.' }] }] }],
    ['images by value and by url', [{ role: 'user', parts: [
      { type: 'image', mediaType: 'image/webp', data: 'UklG' },
      { type: 'image', url: 'https://x.test/a.png' },
      { type: 'image', data: 'iVBO' },
    ] }], { input: [{ type: 'message', role: 'user', content: [
      { type: 'input_image', image_url: 'data:image/webp;base64,UklG', detail: 'auto' },
      { type: 'input_image', image_url: 'https://x.test/a.png', detail: 'auto' },
      { type: 'input_image', image_url: 'data:image/png;base64,iVBO', detail: 'auto' },
    ] }] }],
    ['assistant turn: its own signed thinking, text, tool calls; foreign and unsigned thinking dropped', [{ role: 'assistant', parts: [
      { type: 'thinking', text: 'plan', signature: 'ENC', origin: 'responses' },
      { type: 'thinking', text: 'signed elsewhere', signature: 'sig-m', origin: 'messages' },
      { type: 'thinking', text: 'from another vendor, unsigned' },
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"a":1}' },
      { type: 'tool_call', id: 'call_2', name: 'g', arguments: '{}' },
    ] }], { input: [
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'ENC' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
      { type: 'function_call', call_id: 'call_2', name: 'g', arguments: '{}' },
    ] }],
    ['tool results: string, text list joined, with image as parts', [{ role: 'tool', parts: [
      { type: 'tool_result', callId: 'call_1', content: 'ok' },
      { type: 'tool_result', callId: 'call_2', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { type: 'tool_result', callId: 'call_3', content: [{ type: 'text', text: 'see' }, { type: 'image', mediaType: 'image/png', data: 'AA==' }] },
    ] }], { input: [
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
      { type: 'function_call_output', call_id: 'call_2', output: 'a\nb' },
      { type: 'function_call_output', call_id: 'call_3', output: [{ type: 'input_text', text: 'see' }, { type: 'input_image', image_url: 'data:image/png;base64,AA==', detail: 'auto' }] },
    ] }],
    ['tool results inside a user message keep their order around text', [{ role: 'user', parts: [
      { type: 'tool_result', callId: 'c', content: 'r' },
      { type: 'text', text: 'and then?' },
    ] }], { input: [
      { type: 'function_call_output', call_id: 'c', output: 'r' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'and then?' }] },
    ] }],
  ])('%s', (_name, messages, expected) => {
    const body = encodeRequest(request({ messages }))
    expect({ instructions: body.instructions, input: body.input }).toEqual({ instructions: undefined, ...expected })
  })
})

describe('request encode: parameters', () => {
  it.each<[string, Partial<CanonicalRequest>, Record<string, unknown>]>([
    ['sampling and limits', { maxTokens: 100, temperature: 0.5, topP: 0.8, parallelToolCalls: true, user: 'u', stream: true }, { max_output_tokens: 100, temperature: 0.5, top_p: 0.8, parallel_tool_calls: true, user: 'u', stream: true }],
    ['stop, seed, topK, penalties and n are not sent', { stop: ['END'], seed: 1, topK: 5, presencePenalty: 1, frequencyPenalty: 1, n: 2 }, { stream: false }],
    ['effort', { reasoning: { effort: 'low' } }, { reasoning: { effort: 'low', summary: 'auto' } }],
    ['budget -> effort', { reasoning: { budgetTokens: 8000 } }, { reasoning: { effort: 'medium', summary: 'auto' } }],
    ['budget 0 -> none, no summary', { reasoning: { budgetTokens: 0 } }, { reasoning: { effort: 'none' } }],
    ['auto leaves the effort to the model', { reasoning: { effort: 'auto' } }, { reasoning: { summary: 'auto' } }],
    ['no thoughts: no summary', { reasoning: { effort: 'high', includeThoughts: false } }, { reasoning: { effort: 'high' } }],
    ['json_schema', { responseFormat: { type: 'json_schema', name: 'x', schema: { type: 'object' }, strict: true } }, { text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' }, strict: true } } }],
    ['json_schema without name gets one', { responseFormat: { type: 'json_schema', schema: {} } }, { text: { format: { type: 'json_schema', name: 'response', schema: {} } } }],
    ['json_object', { responseFormat: { type: 'json_object' } }, { text: { format: { type: 'json_object' } } }],
    ['tool choice by name', { toolChoice: { name: 'f' } }, { tool_choice: { type: 'function', name: 'f' } }],
    ['tool choice required', { toolChoice: 'required' }, { tool_choice: 'required' }],
    ['tools from another format are not strict', { tools: [{ name: 'f', description: 'd', parameters: { type: 'object' } }, { name: 'g' }] }, { tools: [
      { type: 'function', name: 'f', description: 'd', parameters: { type: 'object' }, strict: false },
      { type: 'function', name: 'g', parameters: { type: 'object', properties: {} }, strict: false },
    ] }],
  ])('%s', (_name, fields, expected) => {
    expect(encodeRequest(request(fields))).toEqual({ model: 'gpt-5.1', input: hi, stream: false, ...expected })
  })

  it('merges kept wire tools with edited canonical tools', () => {
    const body = encodeRequest(request({
      tools: [{ name: 'b', parameters: { type: 'object' } }, { name: 'new' }],
      extensions: { responses: { tools: [{ type: 'function', name: 'a', strict: true }, { type: 'web_search' }, { type: 'function', name: 'b', strict: true }] } },
    }))
    expect(body.tools).toEqual([
      { type: 'web_search' },
      { type: 'function', name: 'b', parameters: { type: 'object' }, strict: true },
      { type: 'function', name: 'new', parameters: { type: 'object', properties: {} }, strict: false },
    ])
  })
})

describe('request round trip: wire -> canonical -> wire', () => {
  it.each<[string, Record<string, unknown>]>([
    ['a Codex-style turn', {
      model: 'gpt-5.1-codex',
      instructions: 'You are a coding agent.',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Listing**' }], encrypted_content: 'gAAAA-enc' },
        { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":["ls"]}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'a.ts\nb.ts' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Two files.' }] },
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Mind the sandbox.' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And this?' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' }] },
      ],
      tools: [
        { type: 'function', name: 'shell', description: 'Runs a command', strict: false, parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] } },
        { type: 'web_search' },
        { type: 'function', name: 'plan', parameters: { type: 'object', properties: {} } },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning: { effort: 'medium', summary: 'auto' },
      text: { verbosity: 'low' },
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'session-1',
    }],
    ['structured output with sampling', {
      model: 'gpt-4.1', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'JSON please' }] }],
      temperature: 0.3, top_p: 0.5, max_output_tokens: 256, user: 'user-1', stream: false,
      text: { format: { type: 'json_schema', name: 'reply', schema: { type: 'object', properties: { a: { type: 'string' } } }, strict: true } },
      tool_choice: { type: 'function', name: 'plan' },
      tools: [{ type: 'function', name: 'plan', description: 'Plan', parameters: { type: 'object' }, strict: true }],
      metadata: { trace: 'abc' }, service_tier: 'flex', truncation: 'auto',
    }],
  ])('%s', (_name, wire) => {
    expect(encodeRequest(decodeRequest(wire))).toEqual(wire)
  })
})
