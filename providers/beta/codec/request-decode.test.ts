import { describe, expect, it } from 'vitest'
import { RequestValidationError } from 'model-proxy'
import { decodeMessagesRequest } from './request-decode.ts'

const body = (max_tokens: unknown) => ({ model: 'm', max_tokens, messages: [{ role: 'user', content: 'hi' }] })

// `max_tokens: 0` pre-warms the prompt cache without generating (the API's prompt caching docs, and
// the `max_tokens` doc of @anthropic-ai/sdk): the API takes it, so the proxy does.
describe('decodeMessagesRequest: max_tokens', () => {
  it.each([0, 1, 64000])('%j is taken', (value) => {
    expect(decodeMessagesRequest(body(value)).maxTokens).toBe(value)
  })

  it.each([-1, 1.5, '5', null, undefined])('%j is the client\'s 400', (value) => {
    expect(() => decodeMessagesRequest(body(value))).toThrow(RequestValidationError)
  })
})

describe('decodeMessagesRequest: content with no canonical form is named', () => {
  it.each([
    ['an uploaded image (source.type file)', { type: 'image', source: { type: 'file', file_id: 'file_01' } }, 'block:image'],
    ['a document in a tool result', { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'see' }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } }] }, 'tool_result.document'],
  ])('%s', (_name, block, named) => {
    const request = decodeMessagesRequest({ model: 'm', max_tokens: 10, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }, { role: 'user', content: [block] }] })
    expect(request.unmapped).toEqual([named])
  })
})

// A newer API's key on a message, a block, `thinking` or `tool_choice`, and an effort or display value the
// decoder does not know: other formats cannot carry them, so they are named, never lost unseen.
describe('decodeMessagesRequest: unknown keys and values are named', () => {
  const user = (content: unknown) => ({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content }] })
  it.each([
    ['a message key', { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi', id: 'msg_1' }] }, ['messages.id']],
    ['a text block key', user([{ type: 'text', text: 'hi', priority: 'high' }]), ['text.priority']],
    ['a tool_use key', { model: 'm', max_tokens: 10, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {}, caller: { type: 'direct' } }] }] }, ['tool_use.caller']],
    ['a thinking key', { ...user('hi'), thinking: { type: 'enabled', budget_tokens: 2000, interleaved: true } }, ['thinking.interleaved']],
    ['a display value', { ...user('hi'), thinking: { type: 'adaptive', display: 'updates' } }, ['thinking.display']],
    ['an effort value', { ...user('hi'), output_config: { effort: 'extreme' } }, ['output_config.effort']],
    ['a system turn key', { model: 'm', max_tokens: 10, messages: [{ role: 'system', content: 'be brief', id: 's1' }, { role: 'user', content: 'hi' }] }, ['messages.id']],
    ['a web search key', { ...user('hi'), tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2, fetch_pages: true }] }, ['tool:web_search.fetch_pages']],
    ['a format key', { ...user('hi'), output_config: { format: { type: 'json_schema', schema: { type: 'object' }, name: 'a' } } }, ['output_config.format.name']],
    ['a format type the decoder does not know', { ...user('hi'), output_config: { format: { type: 'regex', pattern: 'a+' } } }, ['output_config.format']],
    ['an image source key', user([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==', detail: 'high' } }]), ['image.source.detail']],
    ['a tool_choice key', { ...user('hi'), tools: [{ name: 'f', input_schema: { type: 'object' } }], tool_choice: { type: 'auto', strict: true } }, ['tool_choice.strict']],
  ])('%s', (_name, body, dropped) => {
    expect(decodeMessagesRequest(body).unmapped).toEqual(dropped)
  })

  it('known keys and values: nothing named', () => {
    const body = { ...user([{ type: 'text', text: 'hi', citations: [] }]), thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'max' }, tools: [{ name: 'f' }], tool_choice: { type: 'any', disable_parallel_tool_use: true } }
    expect(decodeMessagesRequest(body).unmapped).toBeUndefined()
  })
})
