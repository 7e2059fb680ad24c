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
    ['a reasoning key', { ...input([{ role: 'user', content: 'hi' }]), reasoning: { effort: 'low', context: 'all' } }, ['reasoning.context']],
    ['a summary style', { ...input([{ role: 'user', content: 'hi' }]), reasoning: { summary: 'verbose' } }, ['reasoning.summary']],
    ['a schema description', { ...input([{ role: 'user', content: 'hi' }]), text: { format: { type: 'json_schema', name: 'a', description: 'the answer', schema: { type: 'object' } } } }, ['text.format.description']],
    ['a named tool choice key', { ...input([{ role: 'user', content: 'hi' }]), tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'f', strict: true } }, ['tool_choice.strict']],
    ['a function tool key', { ...input([{ role: 'user', content: 'hi' }]), tools: [{ type: 'function', name: 'f', defer_loading: true }] }, ['tools.defer_loading']],
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

describe('request decode: what a web search or a namespaced tool asks beyond the canonical is named', () => {
  const body = (tools: unknown[]) => ({ model: 'm', input: 'hi', tools })
  it.each([
    // Codex's own: cached pages only, which no other vendor's search keeps to.
    ['cached pages only', [{ type: 'web_search', external_web_access: false }], ['tool:web_search.external_web_access']],
    ['a newer search key', [{ type: 'web_search', max_results: 3 }], ['tool:web_search.max_results']],
    ['a newer filter', [{ type: 'web_search', filters: { allowed_domains: ['a.com'], recency: 'week' } }], ['tool:web_search.filters.recency']],
    ['a namespaced function key', [{ type: 'namespace', name: 'mcp__s__', description: 'd', tools: [{ type: 'function', name: 'f', defer_loading: true }] }], ['tools.defer_loading']],
    ['a namespace key', [{ type: 'namespace', name: 'mcp__s__', description: 'd', server_label: 's', tools: [{ type: 'function', name: 'f' }] }], ['tools.server_label']],
  ])('%s', (_name, tools, dropped) => {
    expect(decodeRequest(body(tools)).unmapped).toEqual(dropped)
  })

  it('live search and known keys: nothing named', () => {
    expect(decodeRequest(body([{ type: 'web_search', external_web_access: true, search_context_size: 'low', filters: { allowed_domains: ['a.com'] } }])).unmapped).toBeUndefined()
  })
})
