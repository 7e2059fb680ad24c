import type { ProxyKernel } from '../kernel/kernel.ts'
import type { Candidate, ProxyRequest } from '../kernel/hooks.ts'
import { toErrorInfo } from './error-response.ts'
import type { Failure } from './outcome.ts'

/**
 * A request no credential can take right now, whose body a translated attempt would refuse: the client's
 * 400, not the pool's 503 or 429 (its mistake does not depend on when it asks). Only when some candidate
 * translates, since that is when the proxy itself reads the body (a same-format body is the vendor's to
 * judge); the decode is the one that attempt would make, kept on the request.
 */
export function restingBodyError(kernel: ProxyKernel, request: ProxyRequest, candidates: Candidate[]): Failure | undefined {
  if (request.canonical) return undefined
  const translates = candidates.some(candidate => kernel.providers.get(candidate.credential.family)?.format !== request.inbound)
  const source = kernel.formats.get(request.inbound)
  if (!translates || !source) return undefined
  try {
    request.canonical = source.request.decode(request.body)
  } catch (error) {
    const info = toErrorInfo(error)
    if (info.status >= 400 && info.status < 500) return info
  }
  return undefined
}
