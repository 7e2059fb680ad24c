import type { StreamEncoder, StreamEncoderOptions, Part, StreamEvent, ToolCallPart, Usage } from 'model-proxy'
import { createToolCallSequencer } from 'model-proxy/kit/codec'
import { errorTypeFor } from 'model-proxy/kit/errors'
import type { Json } from './guards.ts'
import { itemId, responseId, type ItemKind } from './ids.ts'
import { finishToWire } from './map-finish-reason.ts'
import { buildOutput, callName, outputItem, outputText, refusalPart, responseObject } from './output-items.ts'
import { usageToWire } from './usage.ts'
import { annotationsOf } from './web-search-items.ts'

/** The item being streamed: its output index and the canonical parts it holds so far. */
interface OpenItem { kind: ItemKind; at: number; parts: Part[]; summaryOpen?: boolean }

/**
 * Canonical events -> the Responses event sequence. Items stream one at a time: a part of another kind
 * closes the open item. All parts are kept, so `response.completed` carries the full output, built by the
 * same grouping as non-stream answers (hence the same item ids).
 */
export function createStreamEncoder(options: StreamEncoderOptions): StreamEncoder {
  let id = responseId()
  const created = Math.floor(Date.now() / 1000)
  let seq = 0
  let started = false
  let done = false
  let startUsage: Usage | undefined
  const parts: Part[] = []
  const byIndex = new Map<number, { part: Part; item: OpenItem }>()
  let open: OpenItem | undefined
  let nextAt = 0

  // Object.assign, not a spread: JSON.stringify of an object spread from another function's result takes
  // V8's slow path (measured 2.5-3.9 µs against ~0.5 per event, and a stream is hundreds of events).
  const frame = (type: string, ...payloads: Json[]) => `event: ${type}\ndata: ${JSON.stringify(Object.assign({ type, sequence_number: seq++ }, ...payloads))}\n\n`
  const snapshot = (status: string, extra: { output?: Json[]; usage?: Json | null; incompleteDetails?: Json | null; error?: Json } = {}) =>
    responseObject({ id, model: options.model, created, status, output: extra.output ?? [], usage: extra.usage ?? null, incompleteDetails: extra.incompleteDetails, error: extra.error })
  const ensureStarted = () => {
    if (started) return ''
    started = true
    return frame('response.created', { response: snapshot('in_progress') }) + frame('response.in_progress', { response: snapshot('in_progress') })
  }
  const item = (it: OpenItem, status: 'in_progress' | 'completed') => outputItem(it, id, it.at, status)
  const ref = (it: OpenItem) => ({ item_id: itemId(it.kind, id, it.at), output_index: it.at })
  const textRef = (it: OpenItem) => ({ item_id: itemId(it.kind, id, it.at), output_index: it.at, content_index: it.parts.length - 1 })

  function closePart(it: OpenItem): string {
    const last = it.parts.at(-1)
    if (it.kind === 'message' && last?.type === 'text' && last.refusal) {
      return frame('response.refusal.done', textRef(it), { refusal: last.text }) + frame('response.content_part.done', textRef(it), { part: refusalPart(last.text) })
    }
    if (it.kind === 'message' && last?.type === 'text') {
      // Citations go out when their text is whole: one without offsets (a messages upstream's) spans all of it.
      const annotations = annotationsOf(last)
      const cited = annotations.map((annotation, i) => frame('response.output_text.annotation.added', textRef(it), { annotation_index: i, annotation })).join('')
      return cited + frame('response.output_text.done', textRef(it), { text: last.text }) + frame('response.content_part.done', textRef(it), { part: outputText(last.text, annotations) })
    }
    if (it.kind === 'reasoning' && it.summaryOpen && last?.type === 'thinking') {
      const summary = Object.assign(ref(it), { summary_index: 0 })
      return frame('response.reasoning_summary_text.done', summary, { text: last.text }) + frame('response.reasoning_summary_part.done', summary, { part: { type: 'summary_text', text: last.text } })
    }
    if (it.kind === 'function_call' && last?.type === 'tool_call') return frame('response.function_call_arguments.done', ref(it), { ...callName(last), arguments: last.arguments })
    return ''
  }
  function closeItem(): string {
    if (!open) return ''
    const text = closePart(open) + frame('response.output_item.done', { output_index: open.at, item: item(open, 'completed') })
    open = undefined
    return text
  }
  /** A new canonical block: a text part joins an open message, anything else opens a new item. */
  function begin(index: number, part: Part, kind: OpenItem['kind']): string {
    let text = ensureStarted()
    parts.push(part)
    if (kind === 'message' && open?.kind === 'message') text += closePart(open)
    else {
      text += closeItem()
      open = { kind, at: nextAt++, parts: [] }
      if (kind !== 'message') open.parts.push(part)
      text += frame('response.output_item.added', { output_index: open.at, item: item(open, 'in_progress') })
    }
    byIndex.set(index, { part, item: open })
    if (kind === 'message') {
      open.parts.push(part)
      text += frame('response.content_part.added', textRef(open), { part: part.type === 'text' && part.refusal ? refusalPart('') : outputText('') })
    }
    return text
  }

  function onText(index: number, delta: string, refusal?: boolean): string {
    const found = byIndex.get(index)
    let text = found ? '' : begin(index, refusal ? { type: 'text', text: '', refusal } : { type: 'text', text: '' }, 'message')
    const { part, item: it } = byIndex.get(index)!
    if (part.type !== 'text') return text
    part.text += delta
    // A delta for an item already closed still counts for response.completed, but cannot be framed.
    if (it === open && delta) text += frame(part.refusal ? 'response.refusal.delta' : 'response.output_text.delta', textRef(it), { delta })
    return text
  }
  function onThinking(event: Extract<StreamEvent, { type: 'thinking' }>): string {
    let text = byIndex.has(event.index) ? '' : begin(event.index, { type: 'thinking', text: '' }, 'reasoning')
    const { part, item: it } = byIndex.get(event.index)!
    if (part.type !== 'thinking') return text
    const delta = event.redacted ? '' : event.delta
    part.text += delta
    if (event.signature) part.signature = event.signature
    if (event.origin) part.origin ??= event.origin
    if (event.redacted) part.redacted = true
    if (it !== open || !delta) return text
    const summary = Object.assign(ref(it), { summary_index: 0 })
    if (!it.summaryOpen) text += frame('response.reasoning_summary_part.added', summary, { part: { type: 'summary_text', text: '' } })
    it.summaryOpen = true
    return text + frame('response.reasoning_summary_text.delta', summary, { delta })
  }
  function onToolDelta(index: number, delta: string): string {
    // A delta without its start still keeps its arguments: open the call under a made-up id.
    let text = byIndex.has(index) ? '' : begin(index, { type: 'tool_call', id: `call_${index}`, name: '', arguments: '' }, 'function_call')
    const { part, item: it } = byIndex.get(index)!
    if (part.type !== 'tool_call') return text
    part.arguments += delta
    if (it === open && delta) text += frame('response.function_call_arguments.delta', ref(it), { delta })
    return text
  }
  /** A hosted web search arrives whole: its item opens, searches and completes at once. */
  function onWebSearch(event: Extract<StreamEvent, { type: 'web_search' }>): string {
    const text = ensureStarted() + closeItem()
    const it: OpenItem = { kind: 'web_search_call', at: nextAt++, parts: [event.search] }
    parts.push(event.search)
    byIndex.set(event.index, { part: event.search, item: it })
    const at = ref(it)
    return text + frame('response.output_item.added', { output_index: it.at, item: item(it, 'in_progress') })
      + frame('response.web_search_call.in_progress', at) + frame('response.web_search_call.searching', at) + frame('response.web_search_call.completed', at)
      + frame('response.output_item.done', { output_index: it.at, item: item(it, 'completed') })
  }
  /** A citation joins its text part; it is framed when that text is done (closePart). */
  function onCitation(event: Extract<StreamEvent, { type: 'citation' }>): string {
    const text = byIndex.has(event.index) ? '' : begin(event.index, { type: 'text', text: '' }, 'message')
    const { part } = byIndex.get(event.index)!
    if (part.type === 'text') (part.citations ??= []).push(event.citation)
    return text
  }
  function onFinish(event: Extract<StreamEvent, { type: 'finish' }>): string {
    const finish = finishToWire(event.reason)
    const text = ensureStarted() + closeItem()
    const response = snapshot(finish.status, { output: buildOutput(parts, id, finish.status), usage: usageToWire(event.usage ?? startUsage), incompleteDetails: finish.incomplete_details })
    return text + frame(finish.status === 'completed' ? 'response.completed' : 'response.incomplete', { response })
  }
  function onError(event: Extract<StreamEvent, { type: 'error' }>): string {
    const code = event.errorType ?? errorTypeFor(event.status)
    return frame('error', { code, message: event.message, param: null }) +
      frame('response.failed', { response: snapshot('failed', { output: buildOutput(parts, id, 'incomplete'), error: { code, message: event.message } }) })
  }

  const sequence = createToolCallSequencer()
  function pushOne(event: StreamEvent): string {
    if (done) return ''
    switch (event.type) {
      case 'start':
        if (!started) id = responseId(event.id)
        startUsage = event.usage
        return ensureStarted()
      case 'text': return onText(event.index, event.delta, event.refusal)
      case 'thinking': return onThinking(event)
      case 'tool_call_start': {
        if (byIndex.has(event.index)) return ''
        const call: ToolCallPart = { type: 'tool_call', id: event.id, name: event.name, arguments: '' }
        if (event.namespace) call.namespace = event.namespace
        return begin(event.index, call, 'function_call')
      }
      case 'tool_call_delta': return onToolDelta(event.index, event.delta)
      case 'web_search': return onWebSearch(event)
      case 'citation': return onCitation(event)
      case 'finish':
        done = true
        return onFinish(event)
      case 'error':
        done = true
        return onError(event)
    }
  }

  return {
    push(event: StreamEvent): string {
      let out = ''
      for (const next of sequence(event)) out += pushOne(next)
      return out
    },
    // The format ends with response.completed / response.failed: there is no [DONE] line.
    end: () => '',
  }
}
