import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { SseEvent } from 'model-proxy'
import { createMessagesStreamDecoder } from './stream-decode.ts'

const frame = (type: string, data: Record<string, unknown>, named = true): SseEvent => ({ ...(named && { event: type }), data: JSON.stringify({ type, ...data }) })

describe('the messages stream decoder gives the same events with and without delta templates', () => {
  const text = fc.string({ unit: 'grapheme' })
  const index = fc.constantFrom(0, 1, 2)
  const eventArb = fc.oneof(
    fc.tuple(index, text).map(([i, t]) => frame('content_block_delta', { index: i, delta: { type: 'text_delta', text: t } })),
    fc.tuple(index, text).map(([i, t]) => frame('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: t } })),
    fc.tuple(index, text).map(([i, t]) => frame('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking: t } })),
    index.map(i => frame('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: 'sig' } })),
    fc.tuple(index, fc.constantFrom('text', 'tool_use', 'thinking')).map(([i, type]) => frame('content_block_start', { index: i, content_block: type === 'tool_use' ? { type, id: `t${i}`, name: 'f', input: {} } : { type, [type === 'text' ? 'text' : 'thinking']: '' } })),
    index.map(i => frame('content_block_stop', { index: i })),
    fc.constant(frame('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } })),
    fc.constant(frame('ping', {})),
    // A delta whose type is only in the SSE event name: never a template.
    text.map(t => ({ event: 'content_block_delta', data: JSON.stringify({ index: 0, delta: { type: 'text_delta', text: t } }) })),
    text.map(t => ({ event: 'content_block_stop', data: JSON.stringify({ index: 0, delta: { type: 'text_delta', text: t } }) })),
    text.map(t => frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t }, extra: t.length })),
  )
  it('on generated streams', () => {
    fc.assert(fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
      const run = (chunkTemplates: boolean) => {
        const decoder = createMessagesStreamDecoder({ chunkTemplates })
        const start = frame('message_start', { message: { id: 'msg_1', model: 'm', usage: { input_tokens: 5, output_tokens: 1 } } })
        return [...decoder.push(start), ...events.flatMap(event => decoder.push(event)), ...decoder.push(frame('message_stop', {})), ...decoder.end()]
      }
      expect(run(true)).toEqual(run(false))
    }), { numRuns: 500 })
  })
})

describe('blocks with no canonical form stream nothing', () => {
  // Server tools other than web search (web_fetch, code_execution, tool search), MCP connector calls:
  // their input streams as input_json_delta like a tool_use's, but no client may take it for a call of its own.
  it.each([
    ['server_tool_use web_fetch', { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_fetch', input: {} }, { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_fetch_result', url: 'https://a.example' } }],
    ['server_tool_use code_execution', { type: 'server_tool_use', id: 'srvtoolu_2', name: 'code_execution', input: {} }, { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'code_execution_result', stdout: '4', stderr: '', return_code: 0 } }],
    ['mcp_tool_use', { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', server_name: 's', input: {} }, { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'hi' }] }],
  ])('%s', (_name, use, result) => {
    const decoder = createMessagesStreamDecoder()
    const events = [
      frame('message_start', { message: { id: 'msg_1', model: 'm', usage: { input_tokens: 5, output_tokens: 1 } } }),
      frame('content_block_start', { index: 0, content_block: use }),
      frame('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"url": "https://a.example"}' } }),
      frame('content_block_stop', { index: 0 }),
      frame('content_block_start', { index: 1, content_block: result }),
      frame('content_block_stop', { index: 1 }),
      frame('content_block_start', { index: 2, content_block: { type: 'text', text: '' } }),
      frame('content_block_delta', { index: 2, delta: { type: 'text_delta', text: 'done' } }),
      frame('content_block_stop', { index: 2 }),
      frame('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }),
      frame('message_stop', {}),
    ].flatMap(event => decoder.push(event))
    expect(events.map(event => event.type)).toEqual(['start', 'text', 'finish'])
    expect(events[1]).toEqual({ type: 'text', index: 0, delta: 'done' })
  })
})
