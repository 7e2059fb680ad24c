/**
 * The alpha-cli internal channel wraps the generateContent body: `{model, project, request}` in,
 * `{response: ...}` out (every stream chunk too). The response and stream decoders unwrap it on their own.
 */
export function wrapCliRequest(model: string, project: string, request: Record<string, unknown>): Record<string, unknown> {
  return { model, project, request }
}

export function unwrapCliRequest(body: Record<string, unknown>): { model?: string; project?: string; request: Record<string, unknown> } {
  const inner = body.request
  if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return { request: body }
  return { model: typeof body.model === 'string' ? body.model : undefined, project: typeof body.project === 'string' ? body.project : undefined, request: inner as Record<string, unknown> }
}

export function wrapCliResponse(response: Record<string, unknown>): Record<string, unknown> {
  return { response }
}
