import { randomUUID } from 'node:crypto'

/**
 * The responses WebSocket mode (as the Codex CLI speaks it) keeps state per connection: a request may
 * name the socket's latest response in `previous_response_id` and send only the new input items, and
 * `generate: false` warms that state up without a model call. Upstreams are stateless HTTP (and
 * codex sends `store: false`), so the socket remembers the latest exchange and re-expands each request
 * into the full conversation before it is routed: every family sees the whole context.
 */
export interface ChainLink {
  /** The latest response id on this socket. */
  id: string
  /** Its full input (already expanded) followed by its output items. */
  items: unknown[]
}

type Body = Record<string, unknown>

/** `input` as a list of items: a bare string is one user message. */
export function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }]
  return Array.isArray(input) ? input : []
}

/**
 * A `response.create` body -> the stateless request to route, or the error the vendor answers when the
 * named response is not this socket's latest (the client then resends the full context).
 */
export function expandRequest(body: Body, last: ChainLink | undefined): { body: Body } | { error: { status: number; error: Body } } {
  const { previous_response_id: previous, generate: _generate, ...rest } = body
  if (previous === undefined || previous === null) return { body: rest }
  if (!last || last.id !== previous) {
    return { error: { status: 400, error: { type: 'invalid_request_error', code: 'previous_response_not_found', param: 'previous_response_id', message: `Previous response with id '${String(previous)}' not found.` } } }
  }
  return { body: { ...rest, input: [...last.items, ...inputItems(rest.input)] } }
}

/** What the socket remembers after a completed response to `body` (an expanded request). */
export function linkAfter(body: Body, response: { id?: unknown; output?: unknown }): ChainLink | undefined {
  if (typeof response.id !== 'string') return undefined
  return { id: response.id, items: [...inputItems(body.input), ...(Array.isArray(response.output) ? response.output : [])] }
}

/**
 * The answer to `generate: false`: a completed response with no output, no upstream call. The socket
 * speaks the responses wire format itself here (no codec is involved: nothing is translated).
 */
export function warmupEvents(model: unknown, id = `resp_${randomUUID().replaceAll('-', '')}`, created = Math.floor(Date.now() / 1000)): Body[] {
  const snapshot = (status: string, usage: Body | null) => ({
    id, object: 'response', created_at: created, status, error: null, incomplete_details: null, model: typeof model === 'string' ? model : '', output: [], usage,
  })
  return [
    { type: 'response.created', sequence_number: 0, response: snapshot('in_progress', null) },
    { type: 'response.completed', sequence_number: 1, response: snapshot('completed', { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 }) },
  ]
}
