import { describe, expect, it } from 'vitest'
import { decodeRequest } from './request-decode.ts'

// A newer API's key on an item, a part, a function tool or `reasoning`, and values other formats have no
// word for: named for them, never lost unseen. What describes an answer replayed (ids, status) is no loss.
describe('request decode: unknown keys and values inside are named', () => {
  const input = (items: unknown[]) => ({ model: 'm', input: items })
  it.each([
    ['a message key', input([{ type: 'message', role: 'user', content: 'hi', phase: 'final' }]), ['input.phase']],
    ['a function call key', input([{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', caller: 'x' }, { type: 'function_call_output', call_id: 'c', output: 'ok' }]), ['input.caller']],
    ['a part key', input([{ role: 'user', content: [{ type: 'input_text', text: 'hi', cache_control: {} }] }]), ['input_text.cache_control']],
    ['an output part key', input([{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'ok', ttl: 3 }] }]), ['input_text.ttl']],
    ['an image detail', input([{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/a.png', detail: 'high' }] }]), ['input_image.detail']],
    ['a reasoning key', { ...input([{ role: 'user', content: 'hi' }]), reasoning: { effort: 'low', context: 'all' } }, ['reasoning.context']],
    ['a summary style', { ...input([{ role: 'user', content: 'hi' }]), reasoning: { summary: 'verbose' } }, ['reasoning.summary']],
    ['a function tool key', { ...input([{ role: 'user', content: 'hi' }]), tools: [{ type: 'function', name: 'f', defer_loading: true }] }, ['tools.defer_loading']],
    ['a strict function tool', { ...input([{ role: 'user', content: 'hi' }]), tools: [{ type: 'function', name: 'f', strict: true }] }, ['tools.strict']],
  ])('%s', (_name, body, dropped) => {
    expect(decodeRequest(body).unmapped).toEqual(dropped)
  })

  it('an answer replayed and known values: nothing named', () => {
    const body = {
      ...input([
        { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'a', annotations: [], logprobs: [] }] },
        { type: 'function_call', id: 'fc_1', status: 'completed', call_id: 'c', name: 'f', arguments: '{}', parsed_arguments: {} },
        { type: 'function_call_output', id: 'fo_1', call_id: 'c', output: 'ok' },
        { role: 'user', content: [{ type: 'input_image', image_url: 'https://x/a.png', detail: 'auto' }] },
      ]),
      reasoning: { effort: 'high', summary: 'detailed' }, tools: [{ type: 'function', name: 'f', strict: false }],
    }
    expect(decodeRequest(body).unmapped).toBeUndefined()
  })
})
