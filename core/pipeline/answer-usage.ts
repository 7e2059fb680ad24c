import type { WireCodec, WireFormat } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import { httpErrorStatus } from './upstream-status.ts'

/**
 * The usage a whole answer in the upstream's format reports, read by its codec (the answer's bytes go
 * to the client as they came). An answer the codec cannot read reports none: it is estimated.
 */
export function usageOfAnswer(kernel: ProxyKernel, format: WireFormat, answer: Record<string, unknown>): Usage | undefined {
  const codec = kernel.formats.get(format)
  if (!codec) return undefined
  try {
    return codec.response.decode(answer).usage
  } catch {
    return undefined
  }
}

/** A whole answer's JSON object, or undefined when it is none (a gateway's HTML page, a cut or garbled body). */
export function answerObject(text: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(text)
    return json && typeof json === 'object' && !Array.isArray(json) ? json as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** Fields that make a whole answer an answer in some format (chat, messages, generateContent, responses). */
const answerFields = ['choices', 'content', 'candidates', 'output']

/**
 * The status of a 200 whose body is an upstream error and no answer (`{"error": {...}}`, the messages
 * `{"type": "error", ...}`), as the upstream format's codec reads its error (`error.status`): a codec that
 * reads none, or gives no HTTP error status, makes it a 502. Undefined for an answer. Such a body is a
 * failed attempt, never a 200 the client is charged for (a stream's first event alike: first-event.ts).
 */
export function errorAnswerStatus(codec: WireCodec | undefined, json: Record<string, unknown>): number | undefined {
  const error = json.error
  if (!error || typeof error !== 'object' || answerFields.some(field => field in json)) return undefined
  return httpErrorStatus(codec?.error.status?.(error)) ?? 502
}
