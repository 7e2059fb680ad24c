import type { SseEvent, StreamDecoder, FinishReason, StreamEvent, Usage } from 'model-proxy'
import { ChunkTemplate, type PieceEvent } from 'model-proxy/kit/codec'
import { finishFromMessages } from './map-finish-reason.ts'
import { usageFromMessages } from './usage.ts'
import { statusForMessagesError } from './error.ts'
import { citationFromMessages, isWebSearchUse, webSearchFromBlocks } from './web-search-blocks.ts'

type Raw = Record<string, any>

/** Block types that have a canonical part (a web search's query block is read with its results). */
const streamed = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'web_search_tool_result'])

/** Messages SSE -> canonical events; content block index order is the canonical index order. */
export function createMessagesStreamDecoder(options: { chunkTemplates?: boolean } = {}): StreamDecoder {
  const templates = options.chunkTemplates !== false
  // The last plain delta event (text, tool input, thinking) around its string (core/canonical/chunk-template.ts):
  // the next deltas of the same block differ from it only there and skip JSON.parse.
  let template: ChunkTemplate | undefined
  let started = false
  let ended = false
  let terminal = false
  let usage: Usage | undefined
  let finish: FinishReason | undefined
  let stopSequence: string | undefined
  const indexes = new Map<number, number>()
  // Tool calls whose arguments have not started: one with no arguments streams `partial_json: ""` only.
  const emptyCalls = new Set<number>()
  // Web search query blocks by wire index (their input streams as JSON), and by id for the result block.
  const searchUses = new Map<number, { id: string; json: string }>()
  // Wire indexes of blocks with no canonical form (other server tools, MCP calls and their results):
  // their input deltas look like a tool_use's, and would reach a client as a call with no name.
  const skipped = new Set<number>()
  let next = 0
  const indexOf = (block: unknown) => {
    const key = typeof block === 'number' ? block : indexes.size
    let index = indexes.get(key)
    if (index === undefined) indexes.set(key, index = next++)
    return index
  }
  const close = (): StreamEvent[] => {
    if (ended) return []
    ended = true
    return [{ type: 'finish', reason: finish ?? 'stop', ...(usage && { usage }), ...(stopSequence && { stopSequence }) }]
  }

  return {
    push(event: SseEvent): StreamEvent[] {
      if (ended) return []
      if (template) {
        const delta = template.delta(event.data)
        if (delta !== undefined) return delta ? [template.eventWith(delta)] : []
        template = undefined
      }
      let data: Raw
      try { data = JSON.parse(event.data) } catch { return [] }
      if (!data || typeof data !== 'object') return []
      const type = data.type ?? event.event
      const out: StreamEvent[] = []
      if (!started && type !== 'ping' && type !== 'error') {
        started = true
        const message = data.message ?? {}
        usage = usageFromMessages(message.usage)
        out.push({ type: 'start', id: String(message.id ?? ''), model: String(message.model ?? ''), ...(usage && { usage }) })
      }
      switch (type) {
        case 'content_block_start': {
          const block = data.content_block ?? {}
          // A search's query block is no part of its own: it goes out with the results block.
          if (isWebSearchUse(block)) {
            searchUses.set(Number(data.index), { id: String(block.id ?? ''), json: block.input && Object.keys(block.input).length ? JSON.stringify(block.input) : '' })
            break
          }
          if (!streamed.has(block.type)) {
            skipped.add(Number(data.index))
            break
          }
          const index = indexOf(data.index)
          if (block.type === 'web_search_tool_result') {
            const use = [...searchUses.values()].find(search => search.id === block.tool_use_id)
            let input: unknown = {}
            try { input = JSON.parse(use?.json || '{}') } catch {}
            out.push({ type: 'web_search', index, search: webSearchFromBlocks(use && { id: use.id, input }, block) })
          } else if (block.type === 'tool_use') {
            out.push({ type: 'tool_call_start', index, id: String(block.id ?? ''), name: String(block.name ?? '') })
            if (block.input && Object.keys(block.input).length) out.push({ type: 'tool_call_delta', index, delta: JSON.stringify(block.input) })
            else emptyCalls.add(index)
          } else if (block.type === 'text' && block.text) out.push({ type: 'text', index, delta: block.text })
          else if (block.type === 'thinking' && block.thinking) out.push({ type: 'thinking', index, delta: block.thinking, origin: 'messages' })
          else if (block.type === 'redacted_thinking') out.push({ type: 'thinking', index, delta: '', redacted: true, signature: block.data, origin: 'messages' })
          break
        }
        case 'content_block_delta': {
          const delta = data.delta ?? {}
          if (skipped.has(Number(data.index))) break
          const search = searchUses.get(Number(data.index))
          if (search) {
            if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') search.json += delta.partial_json
            break
          }
          const index = indexOf(data.index)
          if (delta.type === 'citations_delta') for (const citation of citationFromMessages(delta.citation)) out.push({ type: 'citation', index, citation })
          if (delta.type === 'text_delta' && delta.text) out.push({ type: 'text', index, delta: delta.text })
          else if (delta.type === 'input_json_delta' && delta.partial_json) {
            emptyCalls.delete(index)
            out.push({ type: 'tool_call_delta', index, delta: delta.partial_json })
          }
          else if (delta.type === 'thinking_delta' && delta.thinking) out.push({ type: 'thinking', index, delta: delta.thinking, origin: 'messages' })
          else if (delta.type === 'signature_delta') out.push({ type: 'thinking', index, delta: '', signature: delta.signature, origin: 'messages' })
          // The type named in the data itself: then the SSE event name cannot make an alike chunk mean something else.
          if (templates && out.length === 1 && typeof data.type === 'string') template = templateOf(event.data, out[0]!)
          break
        }
        case 'content_block_stop': {
          if (searchUses.has(Number(data.index)) || skipped.has(Number(data.index))) break
          const index = indexOf(data.index)
          if (emptyCalls.delete(index)) out.push({ type: 'tool_call_delta', index, delta: '{}' })
          break
        }
        case 'message_delta':
          if (data.delta?.stop_reason) finish = finishFromMessages(data.delta.stop_reason)
          if (typeof data.delta?.stop_sequence === 'string') stopSequence = data.delta.stop_sequence
          usage = usageFromMessages(data.usage, usage)
          break
        case 'message_stop':
          terminal = true
          out.push(...close())
          break
        case 'error':
          ended = true
          terminal = true
          out.push({ type: 'error', status: statusForMessagesError(data.error ?? {}), message: String(data.error?.message ?? 'upstream stream error'), errorType: data.error?.type, ...(usage && { usage }) })
          break
      }
      return out
    },
    end: close,
    terminated: () => terminal,
    // The terminal events (message_stop, error) are the last ones: nothing belongs to the answer after them.
    complete: () => terminal,
  }
}

/** Where each delta event's string is written in a content_block_delta. */
function templateOf(data: string, event: StreamEvent): ChunkTemplate | undefined {
  const key = event.type === 'text' ? '"text":"' : event.type === 'tool_call_delta' ? '"partial_json":"' : event.type === 'thinking' && !event.signature ? '"thinking":"' : undefined
  return key ? ChunkTemplate.of(data, key, event as PieceEvent) : undefined
}
