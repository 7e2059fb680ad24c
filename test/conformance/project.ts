import type { CanonicalRequest, StreamEvent } from '../../core/canonical/types.ts'

/** What every format keeps of a request: role-ordered text, images, tool calls and results. */
export function projectRequest(request: CanonicalRequest) {
  const turns: string[] = []
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type === 'text') turns.push(`${message.role === 'tool' ? 'user' : message.role}:text:${part.text}`)
      else if (part.type === 'image') turns.push(`${message.role}:image:${part.data ?? part.url}`)
      else if (part.type === 'tool_call') turns.push(`call:${part.id}:${part.name}:${JSON.stringify(JSON.parse(part.arguments))}`)
      else if (part.type === 'tool_result') turns.push(`result:${part.callId}:${typeof part.content === 'string' ? part.content : JSON.stringify(part.content)}`)
    }
  }
  return {
    turns,
    tools: request.tools?.map(tool => tool.name),
    toolChoice: request.toolChoice,
    maxTokens: request.maxTokens,
  }
}

/** What a stream means: its text, its tool calls with whole arguments, its finish reason. */
export function projectStream(events: StreamEvent[]) {
  let text = ''
  const calls = new Map<number, { name: string; args: string }>()
  let finish: string | undefined
  for (const event of events) {
    if (event.type === 'text') text += event.delta
    else if (event.type === 'tool_call_start') calls.set(event.index, { name: event.name, args: '' })
    else if (event.type === 'tool_call_delta') calls.get(event.index)!.args += event.delta
    else if (event.type === 'finish') finish = event.reason
  }
  return { text, calls: [...calls.values()].map(call => ({ name: call.name, args: JSON.parse(call.args || '{}') })), finish }
}
