import { createHash } from 'node:crypto'
import type { ProxyRequest } from 'model-proxy'

/** Which conversation a request belongs to, and how we know. */
export interface SessionKey { key: string; source: string }

/** Agents' own session headers, most specific first (Claude Code, Codex CLI, our WebSocket bridge). */
const headerSignals: Array<[header: string, source: string]> = [
  ['x-claude-code-session-id', 'x-claude-code-session-id'],
  ['session-id', 'session-id'],
  ['session_id', 'session_id'],
  ['conversation_id', 'conversation_id'],
  ['thread-id', 'thread-id'],
  ['x-proxy-ws-connection', 'websocket'],
]

type Body = Record<string, unknown>
type Item = { role?: unknown; type?: unknown }

/**
 * The request's session: an agent's own signal (headers, `prompt_cache_key`, `metadata.user_id`), else,
 * for a multi-turn conversation only, a hash of its stable prefix (system prompt and first user turn).
 * A single-turn request without a signal has no session, so plain clients keep the strategy's order.
 * Keys are per client model: an agent's background calls to a small model do not move its main one.
 */
export function sessionKeyOf(request: Pick<ProxyRequest, 'body' | 'inbound' | 'model'> & { headers: Headers; field?: (key: string) => unknown }): SessionKey | undefined {
  const scoped = (id: string, source: string) => ({ key: `${request.model}\u0000${source}\u0000${id.slice(0, 200)}`, source })
  for (const [header, source] of headerSignals) {
    const value = request.headers.get(header)
    if (value) return scoped(value, source)
  }
  // The body's signals are top-level fields: read alone, an agent's history is not parsed for them.
  const field = request.field ?? ((key: string) => request.body[key])
  const cacheKey = field('prompt_cache_key')
  if (typeof cacheKey === 'string' && cacheKey) return scoped(cacheKey, 'prompt_cache_key')
  const userId = (field('metadata') as Body | undefined)?.user_id
  if (typeof userId === 'string' && userId) return scoped(sessionOfUserId(userId), 'metadata.user_id')
  const prefix = stablePrefix(request.inbound, request.body)
  return prefix === undefined ? undefined : scoped(createHash('sha256').update(prefix).digest('base64url').slice(0, 24), 'prefix')
}

/** Claude Code's user id names its session (JSON `session_id`, or older `..._session_<uuid>`); otherwise the id itself. */
export function sessionOfUserId(userId: string): string {
  if (userId.startsWith('{')) {
    try {
      const parsed = JSON.parse(userId) as { session_id?: unknown }
      if (typeof parsed.session_id === 'string' && parsed.session_id) return parsed.session_id
    } catch {}
  }
  const match = /_session_([\w-]+)$/.exec(userId)
  return match ? match[1]! : userId
}

const answered = (items: unknown[], roles: string[], types: string[] = []) => items.some((item) => {
  const { role, type } = (item ?? {}) as Item
  return (typeof role === 'string' && roles.includes(role)) || (typeof type === 'string' && types.includes(type))
})
const firstUser = (items: unknown[], role = 'user') => items.findIndex(item => (item as Item | null)?.role === role)

/** Serialized system prompt + everything up to the first user turn, when the conversation has had an answer. */
export function stablePrefix(format: ProxyRequest['inbound'], body: Body): string | undefined {
  const list = (value: unknown) => Array.isArray(value) ? value : undefined
  switch (format) {
    case 'chat': {
      const messages = list(body.messages)
      if (!messages || !answered(messages, ['assistant'])) return
      return JSON.stringify(messages.slice(0, firstUser(messages) + 1))
    }
    case 'messages': {
      const messages = list(body.messages)
      if (!messages || !answered(messages, ['assistant'])) return
      return JSON.stringify([body.system ?? null, messages[0]])
    }
    case 'responses': {
      const input = list(body.input)
      if (!input || !answered(input, ['assistant'], ['function_call', 'function_call_output', 'reasoning'])) return
      return JSON.stringify([body.instructions ?? null, input.slice(0, firstUser(input) + 1)])
    }
    case 'generate': {
      const contents = list(body.contents)
      if (!contents || !answered(contents, ['model'])) return
      return JSON.stringify([body.systemInstruction ?? body.system_instruction ?? null, contents[0]])
    }
  }
}
