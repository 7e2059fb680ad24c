import type { CanonicalResponse, Part } from 'model-proxy'
import { CallLedger, partsFromGenerate, partsToGenerate } from './parts.ts'
import { finishFromGenerate, finishToGenerate } from './map-finish-reason.ts'
import { usageFromGenerate, usageToGenerate } from './usage.ts'
import { responseId } from './ids.ts'

type Raw = Record<string, any>

/** A GenerateContentResponse (also inside the alpha-cli `{response}` envelope) -> canonical. Never throws. */
export function decodeGenerateResponse(body: unknown): CanonicalResponse {
  let raw: Raw = body && typeof body === 'object' ? body as Raw : {}
  if (raw.response && typeof raw.response === 'object' && !raw.candidates) raw = raw.response
  const candidate = Array.isArray(raw.candidates) ? raw.candidates[0] ?? {} : {}
  const parts: Part[] = partsFromGenerate(candidate.content?.parts, new CallLedger())
  const response: CanonicalResponse = {
    id: typeof raw.responseId === 'string' ? raw.responseId : responseId(),
    model: typeof raw.modelVersion === 'string' ? raw.modelVersion : '',
    parts,
    finishReason: finishFromGenerate(candidate.finishReason, parts.some(part => part.type === 'tool_call')),
  }
  const usage = usageFromGenerate(raw.usageMetadata)
  if (usage) response.usage = usage
  return response
}

/** Canonical -> GenerateContentResponse. */
export function encodeGenerateResponse(response: CanonicalResponse): Record<string, unknown> {
  const body: Raw = {
    candidates: [{ content: { role: 'model', parts: partsToGenerate(response.parts, new CallLedger()) }, finishReason: finishToGenerate(response.finishReason), index: 0 }],
    modelVersion: response.model,
    responseId: response.id,
  }
  if (response.usage) body.usageMetadata = usageToGenerate(response.usage)
  return body
}
