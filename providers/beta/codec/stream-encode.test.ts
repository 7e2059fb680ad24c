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

describe('messages stream encoder: citations', () => {
  const cited = (data: Record<string, unknown>) => data.type === 'content_block_delta' && (data.delta as { type: string }).type === 'citations_delta'
  it.each<[string, StreamEvent[]]>([
    ['on the open text block', [{ type: 'text', index: 0, delta: 'Sunny.' }, { type: 'citation', index: 0, citation: { url: 'https://a.example/', title: 'A' } }]],
    // Gemini grounds its text on the last chunk, after the tool call that closed the text block.
    ['on a block of its own once its text block closed', [{ type: 'text', index: 0, delta: 'Sunny.' }, ...call, { type: 'citation', index: 0, citation: { url: 'https://a.example/', title: 'A' } }]],
  ])('%s: the citation reaches the client, citing its text', (_name, events) => {
    const encoder = createMessagesStreamEncoder({ model: 'm' })
    const wire = [{ type: 'start', id: 'x', model: 'up' } as StreamEvent, ...events, { type: 'finish', reason: 'stop' } as StreamEvent].map(event => encoder.push(event)).join('')
    const frames = wire.split('\n').filter(line => line.startsWith('data: ')).map(line => JSON.parse(line.slice(6)) as Record<string, unknown>)
    expect(frames.filter(cited).map(data => (data.delta as { citation: unknown }).citation)).toEqual([expect.objectContaining({ url: 'https://a.example/', cited_text: 'Sunny.' })])
    // Every delta lands on a block that is open: started and not yet stopped.
    const open = new Set<number>()
    for (const data of frames) {
      if (data.type === 'content_block_start') open.add(data.index as number)
      if (data.type === 'content_block_delta') expect(open.has(data.index as number)).toBe(true)
      if (data.type === 'content_block_stop') open.delete(data.index as number)
    }
  })
})
