import type { ThinkingPart } from 'model-proxy'
import { isObject, str } from './guards.ts'

/** Texts of `summary` (or, from open-weight models, `content`) entries of a reasoning item. */
function texts(list: unknown): string[] {
  return Array.isArray(list) ? list.flatMap(entry => isObject(entry) && typeof entry.text === 'string' ? [entry.text] : []) : []
}

/** Summary paragraphs are separate entries; the canonical part holds them as one text, blank-line separated. */
export const summarySeparator = '\n\n'

/** A `reasoning` item -> thinking (`encrypted_content` is the opaque token the upstream needs back). */
export function thinkingFromItem(item: Record<string, unknown>): ThinkingPart | undefined {
  const summary = texts(item.summary)
  const text = (summary.length ? summary : texts(item.content)).join(summarySeparator)
  const signature = str(item.encrypted_content)
  if (!text && !signature) return undefined
  return signature ? { type: 'thinking', text, signature } : { type: 'thinking', text }
}

/** Thinking -> a `reasoning` item; an empty text gives an empty summary list, as the upstream sends it. */
export function itemFromThinking(part: ThinkingPart, id?: string): Record<string, unknown> {
  const item: Record<string, unknown> = { type: 'reasoning' }
  if (id) item.id = id
  item.summary = part.text ? [{ type: 'summary_text', text: part.text }] : []
  if (part.signature) item.encrypted_content = part.signature
  return item
}
