import type { StreamEncoder, StreamEncoderOptions, StreamEvent } from 'model-proxy'
import { finishToChat } from './map-finish-reason.ts'
import { usageToChat } from './usage.ts'
import { chatCompletionId } from './ids.ts'
import { encodeChatError } from './error.ts'
import { annotationToChat } from './annotations.ts'

/** Canonical events -> `data: <chat.completion.chunk>` frames, one stable id for the whole stream. */
export function createChatStreamEncoder(options: StreamEncoderOptions): StreamEncoder {
  const id = chatCompletionId()
  const created = Math.floor(Date.now() / 1000)
  let done = false
  // Per choice (`n > 1`): whether its role chunk went out, and its tool calls' slots by part index.
  const started = new Set<number>()
  const toolSlots = new Map<number, number>()
  const slotCounts = new Map<number, number>()
  // The first choice's content so far (where each text part starts in it) and the citations of its
  // text: annotations count characters of the whole content and go out once it is whole, before the finish.
  let contentLength = 0
  let lastText = -1
  const textStarts = new Map<number, number>()
  const citations: Array<Extract<StreamEvent, { type: 'citation' }>> = []

  const frame = (delta: Record<string, unknown>, finish: string | null = null, choice = 0) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: options.model, choices: [{ index: choice, delta, logprobs: null, finish_reason: finish }] })}\n\n`
  // Most of a stream is text deltas: their frame is written around the delta's JSON (the same bytes as frame()).
  const textHead = typeof options.model === 'string' ? `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(options.model)},"choices":[{"index":` : undefined
  const textFrame = (delta: string, choice = 0) => textHead ? `${textHead}${choice},"delta":{"content":${JSON.stringify(delta)}},"logprobs":null,"finish_reason":null}]}\n\n` : frame({ content: delta }, null, choice)
  // Each choice's first chunk carries the role, whatever the first event is (a tool call included).
  const begin = (choice = 0) => {
    if (started.has(choice)) return ''
    started.add(choice)
    return frame({ role: 'assistant', content: null }, null, choice)
  }

  /** Each citation over its text part's span of the content (a part's length: up to where the next one starts). */
  const annotationsOf = () => {
    const starts = [...textStarts.values(), contentLength].sort((a, b) => a - b)
    return citations.map(({ index, citation }) => {
      const start = textStarts.get(index) ?? 0
      const end = starts.find(at => at > start) ?? contentLength
      return annotationToChat(citation, start, end - start)
    })
  }

  return {
    push(event: StreamEvent): string {
      if (done) return ''
      switch (event.type) {
        case 'start': return begin()
        case 'text':
          if (!event.choice && !event.refusal) {
            if (event.index !== lastText) textStarts.set(lastText = event.index, contentLength)
            contentLength += event.delta.length
          }
          // An empty piece says nothing: a content "" would read where the whole answer has null.
          if (!event.delta) return begin(event.choice)
          return begin(event.choice) + (event.refusal ? frame({ refusal: event.delta }, null, event.choice) : textFrame(event.delta, event.choice))
        case 'thinking': return event.delta ? begin(event.choice) + frame({ reasoning_content: event.delta }, null, event.choice) : begin(event.choice)
        case 'tool_call_start': {
          const choice = event.choice ?? 0
          const slot = slotCounts.get(choice) ?? 0
          slotCounts.set(choice, slot + 1)
          toolSlots.set(event.index, slot)
          return begin(choice) + frame({ tool_calls: [{ index: slot, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] }, null, choice)
        }
        case 'tool_call_delta': {
          const slot = toolSlots.get(event.index) ?? 0
          return begin(event.choice) + frame({ tool_calls: [{ index: slot, function: { arguments: event.delta } }] }, null, event.choice)
        }
        case 'finish': {
          done = true
          // Every choice ends with its own finish_reason chunk; the first one's citations come just before.
          let out = citations.length ? begin() + frame({ annotations: annotationsOf() }) : ''
          for (const [choice, reason] of (event.choices ?? [event.reason]).entries()) out += begin(choice) + frame({}, finishToChat(reason), choice)
          // Only a client that asked (`stream_options.include_usage`) gets the usage chunk: the API sends none otherwise.
          if (event.usage && options.includeUsage) out += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: options.model, choices: [], usage: usageToChat(event.usage) })}\n\n`
          return out
        }
        // A search's queries and results have no place in a chat stream; the citations of its text do.
        case 'web_search': return ''
        case 'citation':
          citations.push(event)
          return ''
        case 'error':
          done = true
          return `data: ${JSON.stringify(encodeChatError({ status: event.status, message: event.message, type: event.errorType }))}\n\n`
      }
    },
    end: () => 'data: [DONE]\n\n',
  }
}
