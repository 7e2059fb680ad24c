import type { SseEvent, StreamDecoder, StreamEvent, Usage } from 'model-proxy'
import { statusForResponsesError } from './error.ts'
import { calledTool } from './namespace-tools.ts'
import { isObject, num, str, type Json } from './guards.ts'
import { responseId } from './ids.ts'
import { finishFromWire } from './map-finish-reason.ts'
import { summarySeparator, thinkingFromItem } from './reasoning-item.ts'
import { usageFromWire } from './usage.ts'
import { citationFromAnnotation, webSearchFromItem } from './web-search-items.ts'

/** One canonical block: a message content part, a reasoning item or a function call, and what was emitted. */
interface Block { index: number; kind: 'text' | 'refusal' | 'thinking' | 'tool' | 'search'; sent: string; signed?: boolean; cited?: number }

/** The one `finish`: from the final response's status (the event name when it has none) and usage. */
function finishEvent(res: Json, fallbackStatus: string, sawToolCall: boolean): StreamEvent {
  const reason = isObject(res.incomplete_details) ? res.incomplete_details.reason : undefined
  const usage = usageFromWire(res.usage)
  const finish = finishFromWire(str(res.status) ?? fallbackStatus, reason, sawToolCall)
  return usage ? { type: 'finish', reason: finish, usage } : { type: 'finish', reason: finish }
}

/**
 * Responses SSE -> canonical events. Blocks are keyed by output_index (and content_index inside a
 * message) and get the next canonical index when they first produce output. `.done` events and the
 * final response only fill in what the deltas did not send, so upstreams that skip deltas still work.
 */
export function createStreamDecoder(): StreamDecoder {
  const blocks = new Map<string, Block>()
  let nextIndex = 0
  let started = false
  let closed = false
  // The final response (completed, incomplete or failed) or an error event came: the stream is whole.
  let terminal = false
  let sawToolCall = false
  let out: StreamEvent[] = []

  const start = (response?: unknown) => {
    if (started) return
    started = true
    const res = isObject(response) ? response : {}
    out.push({ type: 'start', id: str(res.id) ?? responseId(), model: str(res.model) ?? '' })
  }
  const block = (key: string, kind: Block['kind']) => {
    let found = blocks.get(key)
    if (!found) blocks.set(key, found = { index: nextIndex++, kind, sent: '' })
    return found
  }
  const send = (found: Block, delta: string) => {
    found.sent += delta
    if (found.kind === 'text') out.push({ type: 'text', index: found.index, delta })
    else if (found.kind === 'refusal') out.push({ type: 'text', index: found.index, delta, refusal: true })
    else if (found.kind === 'thinking') out.push({ type: 'thinking', index: found.index, delta, origin: 'responses' })
    else out.push({ type: 'tool_call_delta', index: found.index, delta })
  }
  const delta = (key: string, kind: Block['kind'], text: unknown) => {
    if (typeof text === 'string' && text) send(block(key, kind), text)
  }
  /** Send the part of a finished text the deltas did not (all of it when no delta came). */
  const catchUp = (key: string, kind: Block['kind'], full: unknown) => {
    if (typeof full !== 'string') return
    const sent = blocks.get(key)?.sent ?? ''
    if (full.length > sent.length && full.startsWith(sent)) send(block(key, kind), full.slice(sent.length))
  }
  const toolStart = (key: string, item: Json) => {
    if (blocks.has(key)) return
    sawToolCall = true
    const found = block(key, 'tool')
    out.push({ type: 'tool_call_start', index: found.index, id: str(item.call_id) ?? str(item.id) ?? '', ...calledTool(item) })
  }
  /** Annotations from `index_from` on (those already sent are skipped: the final response repeats them). */
  const cite = (key: string, annotations: unknown[], from: number) => {
    const found = block(key, 'text')
    annotations.forEach((annotation, i) => {
      if (i + from < (found.cited ?? 0)) return
      found.cited = i + from + 1
      for (const citation of citationFromAnnotation(annotation)) out.push({ type: 'citation', index: found.index, citation })
    })
  }
  const itemDone = (at: number, item: unknown) => {
    if (!isObject(item)) return
    if (item.type === 'web_search_call') {
      // Whole, once: when its item is done (the final response repeats it).
      if (blocks.has(`${at}`)) return
      const found = block(`${at}`, 'search')
      out.push({ type: 'web_search', index: found.index, search: webSearchFromItem(item) })
    } else if (item.type === 'function_call') {
      toolStart(`${at}`, item)
      catchUp(`${at}`, 'tool', item.arguments)
      // A call without arguments still has an (empty) object of them.
      const found = block(`${at}`, 'tool')
      if (!found.sent) send(found, '{}')
    } else if (item.type === 'reasoning') {
      const thinking = thinkingFromItem(item)
      catchUp(`${at}`, 'thinking', thinking?.text)
      const found = thinking?.signature ? block(`${at}`, 'thinking') : undefined
      // The final response repeats the item: the signature goes out once.
      if (found && !found.signed) out.push({ type: 'thinking', index: found.index, delta: '', signature: thinking!.signature, origin: 'responses' })
      if (found) found.signed = true
    } else if (item.type === 'message' && Array.isArray(item.content)) {
      item.content.forEach((part, c) => {
        if (!isObject(part)) return
        catchUp(`${at}:${c}`, part.type === 'refusal' ? 'refusal' : 'text', part.type === 'refusal' ? part.refusal : part.text)
        if (Array.isArray(part.annotations) && part.annotations.length) cite(`${at}:${c}`, part.annotations, 0)
      })
    }
  }
  const fail = (error: Json, fallback: string, usage?: Usage) => {
    const code = str(error.code) ?? str(error.type)
    const event: StreamEvent = { type: 'error', status: statusForResponsesError(error), message: str(error.message) ?? fallback, ...(usage && { usage }) }
    if (code) event.errorType = code
    out.push(event)
    closed = true
    terminal = true
  }

  function handle(data: Json, type: string): void {
    const at = num(data.output_index) ?? 0
    const part = `${at}:${num(data.content_index) ?? 0}`
    switch (type) {
      case 'response.created':
      case 'response.in_progress': return start(data.response)
      case 'response.output_item.added':
        if (isObject(data.item) && data.item.type === 'function_call') {
          toolStart(`${at}`, data.item)
          delta(`${at}`, 'tool', data.item.arguments)
        }
        return
      case 'response.output_text.delta': return delta(part, 'text', data.delta)
      case 'response.refusal.delta': return delta(part, 'refusal', data.delta)
      case 'response.output_text.done': return catchUp(part, 'text', data.text)
      case 'response.output_text.annotation.added': return cite(part, [data.annotation], num(data.annotation_index) ?? blocks.get(part)?.cited ?? 0)
      case 'response.refusal.done': return catchUp(part, 'refusal', data.refusal)
      case 'response.function_call_arguments.delta':
        toolStart(`${at}`, { call_id: data.item_id })
        return delta(`${at}`, 'tool', data.delta)
      case 'response.function_call_arguments.done': return catchUp(`${at}`, 'tool', data.arguments)
      case 'response.reasoning_summary_part.added': {
        // Summary paragraphs are separate parts; canonical thinking is one text with blank lines between.
        const found = blocks.get(`${at}`)
        if ((num(data.summary_index) ?? 0) > 0 && found?.sent) send(found, summarySeparator)
        return
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': return delta(`${at}`, 'thinking', data.delta)
      case 'response.output_item.done': return itemDone(at, data.item)
      case 'response.completed':
      case 'response.incomplete': {
        const res = isObject(data.response) ? data.response : {}
        if (Array.isArray(res.output)) res.output.forEach((item, i) => itemDone(i, item))
        out.push(finishEvent(res, type === 'response.incomplete' ? 'incomplete' : 'completed', sawToolCall))
        closed = true
        terminal = true
        return
      }
      // A failed response that reports usage was billed it.
      case 'response.failed': return fail(isObject(data.response) && isObject(data.response.error) ? data.response.error : {}, 'upstream response failed', isObject(data.response) ? usageFromWire(data.response.usage) : undefined)
      case 'error': return fail(isObject(data.error) ? data.error : data, 'upstream stream error')
    }
  }

  return {
    push(event: SseEvent): StreamEvent[] {
      if (closed) return []
      let data: unknown
      try {
        data = JSON.parse(event.data)
      } catch {
        return []
      }
      if (!isObject(data)) return []
      const type = str(data.type) ?? event.event
      if (!type) return []
      out = []
      // Every canonical stream opens with `start`, even when the upstream skipped response.created.
      if (type !== 'error' && type !== 'response.failed') start(data.response)
      handle(data, type)
      return out
    },
    end(): StreamEvent[] {
      if (closed) return []
      closed = true
      out = []
      start()
      out.push({ type: 'finish', reason: sawToolCall ? 'tool_calls' : 'stop' })
      return out
    },
    terminated: () => terminal,
    // The final response or an error event is the last one: nothing belongs to the answer after it.
    complete: () => terminal,
  }
}
