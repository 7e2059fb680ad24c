type Item = Record<string, unknown>

const sse = (events: Array<[string, Item]>) => events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`).join('')

/**
 * A finished responses answer as the event stream the vendor sends: created, each output item added
 * and done (a message's text as one delta), completed. The loop runs whole before the first event, so
 * the stream carries the same items the JSON answer would.
 */
export function responsesEvents(response: Item): string {
  let sequence = 0
  const events: Array<[string, Item]> = []
  const push = (type: string, data: Item) => events.push([type, { type, sequence_number: sequence++, ...data }])
  push('response.created', { response: { ...response, status: 'in_progress', output: [] } })
  push('response.in_progress', { response: { ...response, status: 'in_progress', output: [] } })
  for (const [index, item] of ((response.output as Item[]) ?? []).entries()) {
    const id = item.id as string
    if (item.type !== 'message') {
      push('response.output_item.added', { output_index: index, item })
      if (item.type === 'mcp_call') push(item.status === 'failed' ? 'response.mcp_call.failed' : 'response.mcp_call.completed', { output_index: index, item_id: id })
      push('response.output_item.done', { output_index: index, item })
      continue
    }
    push('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } })
    for (const [part, content] of ((item.content as Item[]) ?? []).entries()) {
      const at = { item_id: id, output_index: index, content_index: part }
      if (content.type !== 'output_text') {
        push('response.content_part.added', { ...at, part: content })
        push('response.content_part.done', { ...at, part: content })
        continue
      }
      push('response.content_part.added', { ...at, part: { ...content, text: '' } })
      push('response.output_text.delta', { ...at, delta: content.text, logprobs: [] })
      push('response.output_text.done', { ...at, text: content.text, logprobs: [] })
      push('response.content_part.done', { ...at, part: content })
    }
    push('response.output_item.done', { output_index: index, item })
  }
  push('response.completed', { response })
  return sse(events)
}

/** A finished messages answer as the vendor's event stream: message_start, each block, message_delta, message_stop. */
export function messagesEvents(message: Item): string {
  const events: Array<[string, Item]> = []
  const push = (type: string, data: Item) => events.push([type, { type, ...data }])
  const usage = message.usage as Item | undefined
  push('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 0 } } })
  for (const [index, block] of ((message.content as Item[]) ?? []).entries()) {
    if (block.type === 'text') {
      push('content_block_start', { index, content_block: { type: 'text', text: '' } })
      push('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } })
    } else if (block.type === 'tool_use') {
      push('content_block_start', { index, content_block: { ...block, input: {} } })
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) } })
    } else if (block.type === 'thinking') {
      push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } })
      push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } })
      if (block.signature) push('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } })
    } else {
      push('content_block_start', { index, content_block: block })
    }
    push('content_block_stop', { index })
  }
  push('message_delta', { delta: { stop_reason: message.stop_reason ?? 'end_turn', stop_sequence: message.stop_sequence ?? null }, usage: { output_tokens: usage?.output_tokens ?? 0 } })
  push('message_stop', {})
  return sse(events)
}
