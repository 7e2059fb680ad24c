import type { StreamEncoder, StreamEncoderOptions, StreamEvent } from 'model-proxy'
import { finishToChat } from './map-finish-reason.ts'
import { usageToChat } from './usage.ts'
import { chatCompletionId } from './ids.ts'
import { encodeChatError } from './error.ts'

/** Canonical events -> `data: <chat.completion.chunk>` frames, one stable id for the whole stream. */
export function createChatStreamEncoder(options: StreamEncoderOptions): StreamEncoder {
  const id = chatCompletionId()
  const created = Math.floor(Date.now() / 1000)
  let started = false
  let done = false
  const toolSlots = new Map<number, number>()

  const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: options.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`
  // The first chunk carries the role, whatever the first event is (a tool call included).
  const begin = () => {
    if (started) return ''
    started = true
    return frame({ role: 'assistant', content: '' })
  }

  return {
    push(event: StreamEvent): string {
      if (done) return ''
      switch (event.type) {
        case 'start': return begin()
        case 'text': return begin() + frame(event.refusal ? { refusal: event.delta } : { content: event.delta })
        case 'thinking': return event.delta ? begin() + frame({ reasoning_content: event.delta }) : begin()
        case 'tool_call_start': {
          const slot = toolSlots.size
          toolSlots.set(event.index, slot)
          return begin() + frame({ tool_calls: [{ index: slot, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] })
        }
        case 'tool_call_delta': {
          const slot = toolSlots.get(event.index) ?? 0
          return begin() + frame({ tool_calls: [{ index: slot, function: { arguments: event.delta } }] })
        }
        case 'finish': {
          done = true
          let out = begin() + frame({}, finishToChat(event.reason))
          // Only a client that asked (`stream_options.include_usage`) gets the usage chunk: the API sends none otherwise.
          if (event.usage && options.includeUsage) out += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: options.model, choices: [], usage: usageToChat(event.usage) })}\n\n`
          return out
        }
        case 'error':
          done = true
          return `data: ${JSON.stringify(encodeChatError({ status: event.status, message: event.message, type: event.errorType }))}\n\n`
      }
    },
    end: () => 'data: [DONE]\n\n',
  }
}
