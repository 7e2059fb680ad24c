import type { CanonicalResponse, FinishReason, Part, TextPart } from 'model-proxy'
import { CallLedger, partsFromGenerate, partsToGenerate } from './parts.ts'
import { blockedPrompt, finishFromGenerate, finishToGenerate } from './map-finish-reason.ts'
import { usageFromGenerate, usageToGenerate } from './usage.ts'
import { responseId } from './ids.ts'
import { groundParts, groundingTo } from './grounding.ts'

type Raw = Record<string, any>

function candidateOf(candidate: Raw, id: string): { parts: Part[]; finishReason: FinishReason } {
  const parts = groundParts(partsFromGenerate(candidate?.content?.parts, new CallLedger(), undefined, true), candidate?.groundingMetadata, `${id}_${candidate?.index ?? 0}`)
  return { parts, finishReason: finishFromGenerate(candidate?.finishReason, parts.some(part => part.type === 'tool_call')) }
}

/**
 * A GenerateContentResponse (also inside the alpha-cli `{response}` envelope) -> canonical; candidates
 * after the first (`candidateCount > 1`) are alternatives. A blocked prompt has no candidate: its
 * `promptFeedback.blockReason` is a refusal. Never throws.
 */
export function decodeGenerateResponse(body: unknown): CanonicalResponse {
  let raw: Raw = body && typeof body === 'object' ? body as Raw : {}
  if (raw.response && typeof raw.response === 'object' && !raw.candidates) raw = raw.response
  const candidates: Raw[] = Array.isArray(raw.candidates) ? raw.candidates.map((c: unknown) => c && typeof c === 'object' ? c : {}) : []
  const blocked = blockedPrompt(raw.promptFeedback)
  const id = typeof raw.responseId === 'string' ? raw.responseId : responseId()
  const first = blocked && !candidates.length ? { parts: [blocked], finishReason: 'content_filter' as const } : candidateOf(candidates[0] ?? {}, id)
  const response: CanonicalResponse = {
    id,
    model: typeof raw.modelVersion === 'string' ? raw.modelVersion : '',
    ...first,
  }
  if (candidates.length > 1) response.alternatives = candidates.slice(1).map(candidate => candidateOf(candidate, id))
  const usage = usageFromGenerate(raw.usageMetadata)
  if (usage) response.usage = usage
  return response
}

function candidateTo(parts: Part[], finishReason: FinishReason, index: number): Raw {
  const candidate: Raw = { content: { role: 'model', parts: partsToGenerate(parts, new CallLedger(), 'client') }, finishReason: finishToGenerate(finishReason), index }
  const grounding = groundingTo(parts.filter(part => part.type === 'web_search'), parts.filter(part => part.type === 'text' && !part.refusal) as TextPart[])
  if (grounding) candidate.groundingMetadata = grounding
  return candidate
}

/** Canonical -> GenerateContentResponse. */
export function encodeGenerateResponse(response: CanonicalResponse): Record<string, unknown> {
  const body: Raw = {
    candidates: [candidateTo(response.parts, response.finishReason, 0), ...(response.alternatives ?? []).map((alt, i) => candidateTo(alt.parts, alt.finishReason, i + 1))],
    modelVersion: response.model,
    responseId: response.id,
  }
  if (response.usage) body.usageMetadata = usageToGenerate(response.usage)
  return body
}
