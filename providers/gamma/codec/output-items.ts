import type { Part, ToolCallPart } from 'model-proxy'
import type { Json } from './guards.ts'
import { itemId, type ItemKind } from './ids.ts'
import { itemFromThinking } from './reasoning-item.ts'
import { annotationsOf, webSearchToItem } from './web-search-items.ts'

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete'

/** Output parts of one item of the format: a message holds one or more text parts, the others one part. */
export interface OutputGroup { kind: ItemKind; parts: Part[] }

/** Consecutive text parts are content parts of one message. Images and tool results have no output item here. */
export function groupOutput(parts: Part[]): OutputGroup[] {
  const groups: OutputGroup[] = []
  for (const part of parts) {
    const last = groups.at(-1)
    if (part.type === 'text' && last?.kind === 'message') last.parts.push(part)
    else if (part.type === 'text') groups.push({ kind: 'message', parts: [part] })
    else if (part.type === 'tool_call') groups.push({ kind: 'function_call', parts: [part] })
    else if (part.type === 'thinking') groups.push({ kind: 'reasoning', parts: [part] })
    else if (part.type === 'web_search') groups.push({ kind: 'web_search_call', parts: [part] })
  }
  return groups
}

/** How a call names its tool here: a namespaced tool by its own name and its namespace's. */
export const callName = (call: ToolCallPart): Json => call.namespace ? { name: call.namespace.tool, namespace: call.namespace.name } : { name: call.name }

export const outputText = (text: string, annotations: Json[] = []): Json => ({ type: 'output_text', text, annotations })
export const refusalPart = (refusal: string): Json => ({ type: 'refusal', refusal })

/** One output item; its id comes from the response id and its position, so it is the same everywhere. */
export function outputItem(group: OutputGroup, respId: string, outputIndex: number, status: ItemStatus): Json {
  const id = itemId(group.kind, respId, outputIndex)
  const [first] = group.parts
  if (group.kind === 'message') {
    const content = group.parts.flatMap(part => part.type === 'text' ? [part.refusal ? refusalPart(part.text) : outputText(part.text, annotationsOf(part))] : [])
    return { id, type: 'message', role: 'assistant', status, content }
  }
  // Like every item here, the search's id comes from its position (the stream's events name the same one).
  if (first?.type === 'web_search') return webSearchToItem({ ...first, id }, status)
  if (first?.type === 'tool_call') return { id, type: 'function_call', call_id: first.id, ...callName(first), arguments: first.arguments, status }
  return itemFromThinking(first?.type === 'thinking' ? first : { type: 'thinking', text: '' }, 'client', id)!
}

export function buildOutput(parts: Part[], respId: string, status: ItemStatus): Json[] {
  return groupOutput(parts).map((group, i) => outputItem(group, respId, i, status))
}

/** The response object shell shared by non-stream answers and the stream's lifecycle events. */
export function responseObject(fields: {
  id: string; model: string; created: number; status: string; output: Json[]
  usage: Json | null; incompleteDetails?: Json | null; error?: Json | null
}): Json {
  return {
    id: fields.id,
    object: 'response',
    created_at: fields.created,
    status: fields.status,
    error: fields.error ?? null,
    incomplete_details: fields.incompleteDetails ?? null,
    model: fields.model,
    output: fields.output,
    usage: fields.usage,
  }
}
