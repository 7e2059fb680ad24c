import type { WireFormat } from './codec.ts'
import type { CanonicalRequest, Message, Part, Reasoning } from './types.ts'
import { signatureToUpstream } from './signature.ts'

/** What each client format calls its thinking switch, for `x-proxy-dropped`. */
const thinkingField: Record<WireFormat, string> = {
  chat: 'reasoning_effort',
  responses: 'reasoning.effort',
  messages: 'thinking',
  generate: 'generationConfig.thinkingConfig',
}

function thinkingOn(reasoning: Reasoning | undefined): boolean {
  if (!reasoning) return false
  if (reasoning.budgetTokens !== undefined) return reasoning.budgetTokens !== 0
  return reasoning.effort !== undefined && reasoning.effort !== 'none'
}

const continuesLoop = (message: Message) => message.role === 'tool' || (message.role === 'user' && message.parts.some(part => part.type === 'tool_result'))

/**
 * The parts of the assistant turn a request continues with tool results (consecutive assistant
 * messages are one turn on the wire), or undefined when the request does not continue a tool loop.
 */
export function activeToolTurn(messages: Message[]): Part[] | undefined {
  const parts = activeToolMessages(messages)?.flatMap(message => message.parts)
  return parts?.some(part => part.type === 'tool_call') ? parts : undefined
}

/** The assistant messages of that turn (undefined when the request does not continue a tool loop). */
export function activeToolMessages(messages: Message[]): Message[] | undefined {
  let end = messages.length
  while (end > 0 && continuesLoop(messages[end - 1]!)) end--
  if (end === messages.length) return undefined
  let start = end
  while (start > 0 && messages[start - 1]!.role === 'assistant') start--
  return start < end ? messages.slice(start, end) : undefined
}

/**
 * A replayed conversation fitted to the upstream's rules for reasoning it cannot restore. The messages
 * API wants the assistant turn of an ongoing tool loop to start with its own signed thinking while
 * thinking is on; when that thinking came from another vendor (or lost its signature in a client that
 * has nowhere to keep it), thinking is turned off for this request, as the vendor's documentation
 * allows, and the client is told. (generateContent's rule has a documented bypass, applied by its
 * encoder; responses simply gets no reasoning item.)
 */
export function fitReplay(request: CanonicalRequest, client: WireFormat, upstream: WireFormat): { request: CanonicalRequest; dropped?: string } {
  if (upstream !== 'messages' || !thinkingOn(request.reasoning)) return { request }
  const turn = activeToolTurn(request.messages)
  if (!turn) return { request }
  const first = turn.find(part => part.type !== 'thinking' || signatureToUpstream('messages', part))
  if (first?.type === 'thinking') return { request }
  return { request: { ...request, reasoning: { effort: 'none' } }, dropped: thinkingField[client] }
}
