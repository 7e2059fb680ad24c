import type { WireFormat } from './codec.ts'
import type { CanonicalRequest } from './types.ts'
import { RequestValidationError } from './errors.ts'
import { clientName } from './dropped.ts'

/** Upstream formats that answer several candidates at once (chat `n`, generateContent `candidateCount`). */
export const candidateFormats: ReadonlySet<WireFormat> = new Set(['chat', 'generate'])

/**
 * A request for `n > 1` candidates toward an upstream that answers one (messages, responses) is refused
 * in the client's words, before anything is sent: answering one where the client indexes several breaks
 * it silently, and quietly sending n requests would multiply its cost behind its back (docs/translation.md).
 */
export function checkCandidates(request: CanonicalRequest, client: WireFormat, upstream: WireFormat): void {
  if (request.n === undefined || request.n <= 1 || candidateFormats.has(upstream)) return
  const field = clientName(client, 'n')
  throw new RequestValidationError(`${field} = ${request.n} is not supported for model ${JSON.stringify(request.model)}: its upstream (${upstream} API) answers one candidate per request; send ${field} = 1 or make ${request.n} requests`, field)
}
