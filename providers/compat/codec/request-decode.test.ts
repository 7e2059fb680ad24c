import { describe, expect, it } from 'vitest'
import { decodeChatRequest } from './request-decode.ts'

const body = (tool_choice: unknown) => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f' } }], tool_choice })

// `tool_choice`: 'none' | 'auto' | 'required', a named function, and the newer `allowed_tools` (a subset
// with a mode) and `custom` choices, which have no canonical form.
describe('decodeChatRequest: tool_choice', () => {
  it.each([
    ['auto', 'auto'],
    ['required', 'required'],
    [{ type: 'function', function: { name: 'f' } }, { name: 'f' }],
  ])('%j', (choice, canonical) => {
    const request = decodeChatRequest(body(choice))
    expect(request.toolChoice).toEqual(canonical)
    expect(request.unmapped).toBeUndefined()
  })

  it.each([
    { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'f' } }] } },
    { type: 'custom', custom: { name: 'g' } },
    { type: 'function_v2', function: { name: 'f' } },
  ])('%j is named, and kept for a chat upstream', (choice) => {
    const request = decodeChatRequest(body(choice))
    expect(request.toolChoice).toBeUndefined()
    expect(request.unmapped).toEqual(['tool_choice'])
    expect(request.extensions?.chat?.tool_choice).toEqual(choice)
  })
})

// Keys a client adds to a message, a content part, a tool call or a tool (`cache_control`, `strict`, a
// server's own) have no canonical place: named, so other formats do not lose them unseen.
describe('decodeChatRequest: unknown keys inside the conversation and tools', () => {
  const named = (body: Record<string, unknown>) => decodeChatRequest({ model: 'm', ...body }).unmapped
  it.each([
    ['a message key', { messages: [{ role: 'user', content: 'hi', cache_control: { type: 'ephemeral' } }] }, ['messages.cache_control']],
    ['a content part key', { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }] }, ['content.cache_control']],
    ['a tool call key', { messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, extra_content: {} }] }] }, ['tool_calls.extra_content']],
    ['a stream option', { messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true, include_obfuscation: false, chunk_size: 4 } }, ['stream_options.chunk_size']],
    ['an image_url key', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/a.png', fidelity: 'max' } }] }] }, ['image_url.fidelity']],
    ['a named tool choice key', { messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function', function: { name: 'f', strict: true } } }, ['tool_choice.function.strict']],
    ['a tool key', { messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f' }, cache_control: { type: 'ephemeral' } }] }, ['tools.cache_control']],
  ])('%s', (_name, body, dropped) => {
    expect(named(body)).toEqual(dropped)
  })

  it.each([
    ['known keys', { messages: [{ role: 'assistant', content: 'a', name: 'n', annotations: [] }, { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'https://x/a.png', detail: 'auto' } }] }] }],
    ['a strict tool (canonical)', { messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', strict: true } }] }],
  ])('%s: nothing named', (_name, body) => {
    expect(named(body)).toBeUndefined()
  })

  it("an assistant turn's refusal is carried as a refusal part", () => {
    const request = decodeChatRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, refusal: 'I cannot.' }] })
    expect(request.messages[1]).toEqual({ role: 'assistant', parts: [{ type: 'text', text: 'I cannot.', refusal: true }] })
    expect(request.unmapped).toBeUndefined()
  })
})

// GPT-5's custom tools: a call with free-form input is valid in chat and has no form elsewhere. It was
// refused (400) on its way to another format; now it is left out with its result, and named.
describe('decodeChatRequest: a custom tool call', () => {
  it('is named and left out with its result', () => {
    const request = decodeChatRequest({
      model: 'm', tools: [{ type: 'custom', custom: { name: 'apply_patch' } }],
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: 'patching', tool_calls: [{ id: 'c1', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
        { role: 'user', content: 'thanks' },
      ],
    })
    expect(request.messages.map(message => message.role)).toEqual(['user', 'assistant', 'user'])
    expect(request.unmapped).toEqual(['tool_calls:custom', 'tool:custom'])
  })
})

describe('decodeChatRequest: a response format beyond the canonical', () => {
  const named = (response_format: unknown) => decodeChatRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], response_format }).unmapped
  it.each([
    ['a schema description', { type: 'json_schema', json_schema: { name: 'a', description: 'the answer', schema: { type: 'object' } } }, ['response_format.json_schema.description']],
    ['a format key', { type: 'json_object', priority: 1 }, ['response_format.priority']],
    ['a format type the decoder does not know', { type: 'grammar', grammar: 'x' }, ['response_format']],
  ])('%s is named', (_name, format, dropped) => {
    expect(named(format)).toEqual(dropped)
  })
  it('a plain schema: nothing named', () => {
    expect(named({ type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object' }, strict: true } })).toBeUndefined()
  })
})
