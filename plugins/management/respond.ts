import { buildHeaders } from './build-info.ts'

/** Management answers: JSON with the build headers (errors too: `{error}` per the spec). */
export function reply(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...buildHeaders, ...headers } })
}

export const fail = (status: number, error: string, extra: Record<string, unknown> = {}) => reply({ error, ...extra }, status)

/** Thrown by handlers to answer with a management error body. */
export class ManagementError extends Error {
  constructor(readonly status: number, readonly error: string, readonly extra: Record<string, unknown> = {}) {
    super(error)
    this.name = 'ManagementError'
  }
}
