import type { CanonicalResponse } from 'model-proxy'
import type { Json } from './guards.ts'
import { responseId } from './ids.ts'
import { finishToWire } from './map-finish-reason.ts'
import { buildOutput, responseObject } from './output-items.ts'
import { usageToWire } from './usage.ts'

/** Canonical response -> a `/v1/responses` response object. */
export function encodeResponse(response: CanonicalResponse): Json {
  const id = responseId(response.id)
  const finish = finishToWire(response.finishReason)
  return responseObject({
    id,
    model: response.model,
    created: response.created ?? Math.floor(Date.now() / 1000),
    status: finish.status,
    incompleteDetails: finish.incomplete_details,
    output: buildOutput(response.parts, id, finish.status),
    usage: usageToWire(response.usage),
  })
}
