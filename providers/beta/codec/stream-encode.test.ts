import { describe, expect, it } from 'vitest'
import type { StreamEvent } from 'model-proxy'
import { signatureToClient } from 'model-proxy/kit/signatures'
import { createMessagesStreamEncoder } from './stream-encode.ts'

/** The content blocks a messages client assembles from the encoded stream. */
function blocksOf(events: StreamEvent[]) {
  const encoder = createMessagesStreamEncoder({ model: 'client-model' })
  const wire = [{ type: 'start', id: 'x', model: 'up' } as StreamEvent, ...events, { type: 'finish', reason: 'tool_calls' } as StreamEvent].map(event => encoder.push(event)).join('') + encoder.end()
  const blocks: Array<Record<string, unknown>> = []
  for (const line of wire.split('\n').filter(line => line.startsWith('data: '))) {
    const data = JSON.parse(line.slice(6))
    if (data.type === 'content_block_start') blocks[data.index] = { ...data.content_block }
    if (data.type === 'content_block_delta' && data.delta.type === 'thinking_delta') blocks[data.index]!.thinking += data.delta.thinking
    if (data.type === 'content_block_delta' && data.delta.type === 'signature_delta') blocks[data.index]!.signature = data.delta.signature
  }
  return blocks
}

const call: StreamEvent[] = [{ type: 'tool_call_start', index: 1, id: 'call_1', name: 'Bash' }, { type: 'tool_call_delta', index: 1, delta: '{}' }]

describe('messages stream encoder: thinking blocks', () => {
  it.each<[string, StreamEvent[], Array<Record<string, unknown>>]>([
    // A generateContent functionCall's thoughtSignature alone: carried in an envelope naming its vendor.
    ['a bare foreign signature is an enveloped thinking block', [{ type: 'thinking', index: 0, delta: '', signature: 'sig-g', origin: 'generate' }, ...call],
      [{ type: 'thinking', thinking: '', signature: signatureToClient('messages', { signature: 'sig-g', origin: 'generate' }) }, { type: 'tool_use', id: 'call_1', name: 'Bash', input: {} }]],
    ['a messages signature alone is a signed thinking block', [{ type: 'thinking', index: 0, delta: '', signature: 'sig-m', origin: 'messages' }, ...call],
      [{ type: 'thinking', thinking: '', signature: 'sig-m' }, { type: 'tool_use', id: 'call_1', name: 'Bash', input: {} }]],
    ['foreign thinking text is shown, its signature enveloped', [{ type: 'thinking', index: 0, delta: 'Hmm.', origin: 'generate' }, { type: 'thinking', index: 0, delta: '', signature: 'sig-g', origin: 'generate' }, ...call],
      [{ type: 'thinking', thinking: 'Hmm.', signature: signatureToClient('messages', { signature: 'sig-g', origin: 'generate' }) }, { type: 'tool_use', id: 'call_1', name: 'Bash', input: {} }]],
    ['unsigned thinking gets a marked, empty signature', [{ type: 'thinking', index: 0, delta: 'Hmm.' }, ...call],
      [{ type: 'thinking', thinking: 'Hmm.', signature: signatureToClient('messages', {}, true) }, { type: 'tool_use', id: 'call_1', name: 'Bash', input: {} }]],
    ['redacted thinking stays opaque', [{ type: 'thinking', index: 0, delta: '', redacted: true, signature: 'ZGF0YQ==', origin: 'messages' }, ...call],
      [{ type: 'redacted_thinking', data: 'ZGF0YQ==' }, { type: 'tool_use', id: 'call_1', name: 'Bash', input: {} }]],
  ])('%s', (_name, events, expected) => {
    expect(blocksOf(events)).toEqual(expected)
  })
})
