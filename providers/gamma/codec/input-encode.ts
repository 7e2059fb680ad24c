import type { Message, Part, ToolResultPart } from 'model-proxy'
import { fileToPart, imageToUrl } from './content.ts'
import type { Json } from './guards.ts'
import { itemFromThinking } from './reasoning-item.ts'
import { callName } from './output-items.ts'

const textOf = (message: Message) => message.parts.flatMap(part => part.type === 'text' ? [part.text] : []).join('\n\n')

/** Leading system messages -> `instructions` (blank-line joined); the rest -> `input` items in order. */
export function encodeInput(messages: Message[]): { instructions?: string; input: Json[] } {
  let first = 0
  while (messages[first]?.role === 'system') first++
  const instructions = first ? messages.slice(0, first).map(textOf).join('\n\n') : undefined
  const input = messages.slice(first).flatMap(encodeMessage)
  return instructions === undefined ? { input } : { instructions, input }
}

/** The role of a message item: system instructions mid-conversation are `developer` in this format. */
function itemRole(role: Message['role']): string {
  if (role === 'system') return 'developer'
  return role === 'assistant' ? 'assistant' : 'user'
}

/** One canonical message -> items; consecutive text/image parts share one message item. */
function encodeMessage(message: Message): Json[] {
  const role = itemRole(message.role)
  const items: Json[] = []
  let content: Json[] | undefined
  const flush = () => {
    if (content) items.push({ type: 'message', role, content })
    content = undefined
  }
  for (const part of message.parts) {
    const piece = contentPiece(part, role)
    if (piece) {
      (content ??= []).push(piece)
      continue
    }
    const item = standaloneItem(part)
    if (!item) continue
    flush()
    items.push(item)
  }
  flush()
  return items
}

function contentPiece(part: Part, role: string): Json | undefined {
  if (part.type === 'text' && part.refusal && role === 'assistant') return { type: 'refusal', refusal: part.text }
  if (part.type === 'text') return { type: role === 'assistant' ? 'output_text' : 'input_text', text: part.text }
  // Assistant messages of this format hold text only: an image there has nowhere to go.
  if (part.type === 'image' && role !== 'assistant') return { type: 'input_image', image_url: imageToUrl(part), detail: part.detail ?? 'auto' }
  if (part.type === 'file' && role !== 'assistant') return fileToPart(part)
  return undefined
}

function standaloneItem(part: Part): Json | undefined {
  switch (part.type) {
    case 'tool_call': return { type: 'function_call', call_id: part.id, ...callName(part), arguments: part.arguments }
    case 'tool_result': return { type: 'function_call_output', call_id: part.callId, output: toolOutput(part) }
    // Only the upstream's own encrypted_content lets it resume its reasoning; a bare summary text or
    // another vendor's signature cannot be sent back as reasoning (the item would be rejected).
    case 'thinking': return itemFromThinking(part, 'upstream')
    default: return undefined
  }
}

/** Text-only results become one string, the shape every Responses-compatible server accepts. */
function toolOutput(part: ToolResultPart): string | Json[] {
  if (typeof part.content === 'string') return part.content
  if (part.content.every(piece => piece.type === 'text')) return part.content.map(piece => piece.type === 'text' ? piece.text : '').join('\n')
  return part.content.map(piece => piece.type === 'text'
    ? { type: 'input_text', text: piece.text }
    : { type: 'input_image', image_url: imageToUrl(piece), detail: piece.detail ?? 'auto' })
}
