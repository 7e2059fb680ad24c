import type { ThinkingPart } from 'model-proxy'
import { signatureFromClient, signatureToClient, signatureToUpstream } from 'model-proxy/kit/signatures'
import { isObject, str } from './guards.ts'

/** Texts of `summary` (or, from open-weight models, `content`) entries of a reasoning item. */
function texts(list: unknown): string[] {
  return Array.isArray(list) ? list.flatMap(entry => isObject(entry) && typeof entry.text === 'string' ? [entry.text] : []) : []
}

/** Summary paragraphs are separate entries; the canonical part holds them as one text, blank-line separated. */
export const summarySeparator = '\n\n'

/**
 * A `reasoning` item -> thinking. `encrypted_content` is the opaque token its vendor needs back; in a
 * client's replay it may be our envelope around another vendor's signature (core/canonical/signature.ts).
 */
export function thinkingFromItem(item: Record<string, unknown>): ThinkingPart | undefined {
  const summary = texts(item.summary)
  const slot = str(item.encrypted_content) ? signatureFromClient('responses', item.encrypted_content as string) : undefined
  const text = slot?.redacted ? '' : (summary.length ? summary : texts(item.content)).join(summarySeparator)
  if (!text && !slot?.signature) return undefined
  const origin = slot ? slot.origin : 'responses'
  return { type: 'thinking', text, ...(origin && { origin }), ...(slot?.signature && { signature: slot.signature }), ...(slot?.redacted && { redacted: true }) }
}

/**
 * Thinking -> a `reasoning` item; an empty text gives an empty summary list, as the upstream sends it.
 * Toward the upstream only its own `encrypted_content` goes (undefined: nothing it could resume from);
 * a client gets every thinking part, marked so that its replay is recognised (signature.ts).
 */
export function itemFromThinking(part: ThinkingPart, audience: 'client' | 'upstream', id?: string): Record<string, unknown> | undefined {
  const signature = audience === 'upstream' ? signatureToUpstream('responses', part) : signatureToClient('responses', part, true)
  if (audience === 'upstream' && !signature) return undefined
  const item: Record<string, unknown> = { type: 'reasoning' }
  if (id) item.id = id
  const text = part.redacted ? '' : part.text
  item.summary = text ? [{ type: 'summary_text', text }] : []
  if (signature) item.encrypted_content = signature
  return item
}
