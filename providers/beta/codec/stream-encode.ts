import type { StreamEncoder, StreamEncoderOptions, StreamEvent, Usage } from 'model-proxy'
import { createToolCallSequencer } from 'model-proxy/kit/codec'
import { signatureToClient } from 'model-proxy/kit/signatures'
import { finishToMessages } from './map-finish-reason.ts'
import { usageToMessages } from './usage.ts'
import { messageId } from './ids.ts'
import { messagesErrorType } from './error.ts'
import { citationToMessages, webSearchToBlocks } from './web-search-blocks.ts'

// Object.assign, not a spread: JSON.stringify of a spread object takes V8's slow path (~3x per event).
const frame = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify(Object.assign({ type }, data))}\n\n`
/** What precedes a text delta's text in its frame, by block index (kept for the first few: two strings fewer per delta). */
const textDeltaHeads: string[] = []
const textDeltaHead = (index: number) => textDeltaHeads[index] ?? (index < 64 ? textDeltaHeads[index] = textDeltaHeadOf(index) : textDeltaHeadOf(index))
const textDeltaHeadOf = (index: number) => `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":`
/** `frame('content_block_delta', { index, delta: { type: 'text_delta', text } })`, written directly: most of a stream is these. */
const textDeltaFrame = (index: number, text: string) => `${textDeltaHead(index)}${JSON.stringify(text)}}}\n\n`

/**
 * Canonical events -> Messages SSE. It always opens with `message_start` (also when the first upstream
 * event is a tool call) and keeps one content block open at a time, closing it when the next starts.
 */
export function createMessagesStreamEncoder(options: StreamEncoderOptions): StreamEncoder {
  const id = messageId()
  let started = false
  let done = false
  let startUsage: Usage | undefined
  let open: { canonical: number; wire: number; kind: string; signed?: boolean; origin?: string; text?: string } | undefined
  let nextWire = 0
  const begun = new Set<number>()

  const begin = () => {
    if (started) return ''
    started = true
    return frame('message_start', { message: { id, type: 'message', role: 'assistant', model: options.model, content: [], stop_reason: null, stop_sequence: null, usage: usageToMessages(startUsage) } })
  }
  /** Text of the text blocks that closed, by canonical index: what a late citation cites. */
  const closedTexts = new Map<number, string>()
  const closeBlock = () => {
    if (!open) return ''
    if (open.kind === 'text' && open.text) closedTexts.set(open.canonical, open.text)
    // Thinking that came unsigned still gets a slot value: a client replays the block whole, and our
    // envelope tells the next request that no vendor can verify it.
    const mark = open.kind === 'thinking' && !open.signed ? signatureDelta(signatureToClient('messages', { origin: open.origin }, true)) : ''
    const out = mark + frame('content_block_stop', { index: open.wire })
    open = undefined
    return out
  }
  const signatureDelta = (signature: string | undefined) => signature ? frame('content_block_delta', { index: open!.wire, delta: { type: 'signature_delta', signature } }) : ''
  const ensureBlock = (canonical: number, kind: string, block: Record<string, unknown>) => {
    if (open?.canonical === canonical) return ''
    begun.add(canonical)
    const out = closeBlock()
    open = { canonical, wire: nextWire++, kind }
    return out + frame('content_block_start', { index: open.wire, content_block: block })
  }

  const sequence = createToolCallSequencer()
  function pushOne(event: StreamEvent): string {
    if (done) return ''
    switch (event.type) {
      case 'start':
        startUsage = event.usage
        return begin()
      case 'text': {
        const out = begin() + ensureBlock(event.index, 'text', { type: 'text', text: '' })
        open!.text = (open!.text ?? '') + event.delta
        return out + textDeltaFrame(open!.wire, event.delta)
      }
      // The query block and the results block, each whole (the query as one input_json_delta, as the API streams it).
      case 'web_search': {
        let out = begin() + closeBlock()
        for (const block of webSearchToBlocks(event.search, 'client')) {
          const wire = nextWire++
          if (block.type === 'server_tool_use') {
            out += frame('content_block_start', { index: wire, content_block: { ...block, input: {} } })
            out += frame('content_block_delta', { index: wire, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } })
          } else out += frame('content_block_start', { index: wire, content_block: block })
          out += frame('content_block_stop', { index: wire })
        }
        return out
      }
      // A citation joins its text block while it is open. One whose block already closed (Gemini grounds
      // the text at the end, after a tool call) comes on an empty text block of its own: never lost.
      case 'citation': {
        let out = begin()
        if (open?.canonical !== event.index && begun.has(event.index)) {
          out += closeBlock()
          open = { canonical: event.index, wire: nextWire++, kind: 'text', text: closedTexts.get(event.index) ?? '' }
          out += frame('content_block_start', { index: open.wire, content_block: { type: 'text', text: '', citations: [] } })
        } else out += ensureBlock(event.index, 'text', { type: 'text', text: '', citations: [] })
        return out + frame('content_block_delta', { index: open!.wire, delta: { type: 'citations_delta', citation: citationToMessages(event.citation, open!.text ?? '') } })
      }
      case 'thinking': {
        if (event.redacted && event.origin === 'messages') return begin() + closeBlock() + ensureBlock(event.index, 'redacted', { type: 'redacted_thinking', data: event.signature ?? '' })
        // Nothing to show and nothing to carry: no empty block.
        if (!event.delta && !event.signature && open?.canonical !== event.index) return begin()
        let out = begin() + ensureBlock(event.index, 'thinking', { type: 'thinking', thinking: '', signature: '' })
        open!.origin ??= event.origin
        if (event.delta && !event.redacted) out += frame('content_block_delta', { index: open!.wire, delta: { type: 'thinking_delta', thinking: event.delta } })
        if (event.signature) {
          // Another vendor's signature (a generateContent functionCall's thoughtSignature) rides in an envelope.
          out += signatureDelta(signatureToClient('messages', event))
          open!.signed = true
        }
        return out
      }
      case 'tool_call_start':
        return begin() + ensureBlock(event.index, 'tool_use', { type: 'tool_use', id: event.id, name: event.name, input: {} })
      case 'tool_call_delta':
        return begin() + ensureBlock(event.index, 'tool_use', { type: 'tool_use', id: `toolu_${event.index}`, name: '', input: {} }) + frame('content_block_delta', { index: open!.wire, delta: { type: 'input_json_delta', partial_json: event.delta } })
      case 'finish': {
        done = true
        const usage = usageToMessages(event.usage ?? startUsage)
        return begin() + closeBlock()
          + frame('message_delta', { delta: { stop_reason: finishToMessages(event.reason, event.stopSequence), stop_sequence: event.stopSequence ?? null }, usage })
          + frame('message_stop', {})
      }
      case 'error':
        done = true
        return frame('error', { error: { type: messagesErrorType(event.status), message: event.message } })
    }
  }

  return {
    push(event: StreamEvent): string {
      let out = ''
      for (const next of sequence(event)) out += pushOne(next)
      return out
    },
    end: () => '',
  }
}
