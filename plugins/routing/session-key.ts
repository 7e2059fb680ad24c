import { hash } from 'node:crypto'
import type { ProxyRequest } from 'model-proxy'
import { ClientBody, type BodyShape } from 'model-proxy/kit/body'

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
export function sessionKeyOf(request: Pick<ProxyRequest, 'inbound' | 'model'> & { body?: Body; headers: Headers; field?: (key: string) => unknown; clientBody?: ClientBody }): SessionKey | undefined {
  const scoped = (id: string, source: string) => ({ key: `${request.model}\u0000${source}\u0000${id.slice(0, 200)}`, source })
  for (const [header, source] of headerSignals) {
    const value = request.headers.get(header)
    if (value) return scoped(value, source)
  }
  // The body's signals are top-level fields: read alone, an agent's history is not parsed for them.
  const field = request.field ?? ((key: string) => request.body?.[key])
  const cacheKey = field('prompt_cache_key')
  if (typeof cacheKey === 'string' && cacheKey) return scoped(cacheKey, 'prompt_cache_key')
  const userId = (field('metadata') as Body | undefined)?.user_id
  if (typeof userId === 'string' && userId) return scoped(sessionOfUserId(userId), 'metadata.user_id')
  // The client's bytes when there are any (as written, whether or not something parsed them since).
  const prefix = stablePrefix(request.inbound, request.clientBody ?? request.body ?? {})
  return prefix === undefined ? undefined : scoped(hash('sha256', prefix, 'base64url').slice(0, 24), 'prefix')
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

/**
 * What a stable prefix is made of: each list's items (only their role and type are read), a top-level
 * value as text, a list's first items as text. From a parsed body (JSON.stringify) or from the client's
 * bytes as written (a multi-turn agent request is then hashed without being parsed).
 */
interface PrefixSource {
  items(key: string): unknown[] | undefined
  text(key: string): string | undefined
  first(key: string, count: number): string
}

const list = (value: unknown) => Array.isArray(value) ? value : undefined

const objectSource = (body: Body): PrefixSource => ({
  items: key => list(body[key]),
  text: key => body[key] === undefined ? undefined : JSON.stringify(body[key]),
  first: (key, count) => JSON.stringify(list(body[key])?.slice(0, count) ?? []),
})

const itemShape = [{ role: true, type: true }] satisfies BodyShape

function bytesSource(body: ClientBody): PrefixSource {
  const skeleton = body.writtenSkeleton({ messages: itemShape, input: itemShape, contents: itemShape })
  if (!skeleton) return objectSource(body.object())
  return {
    items: key => list(skeleton[key]),
    text: key => body.rawText(key),
    first: (key, count) => body.rawText(key, count) ?? '[]',
  }
}

/** Serialized system prompt + everything up to the first user turn, when the conversation has had an answer. */
export function stablePrefix(format: ProxyRequest['inbound'], body: Body | ClientBody): string | undefined {
  const source = body instanceof ClientBody ? bytesSource(body) : objectSource(body)
  switch (format) {
    case 'chat': {
      const messages = source.items('messages')
      if (!messages || !answered(messages, ['assistant'])) return
      return source.first('messages', firstUser(messages) + 1)
    }
    case 'messages': {
      const messages = source.items('messages')
      if (!messages || !answered(messages, ['assistant'])) return
      return `[${source.text('system') ?? 'null'},${source.first('messages', 1).slice(1, -1) || 'null'}]`
    }
    case 'responses': {
      const input = source.items('input')
      if (!input || !answered(input, ['assistant'], ['function_call', 'function_call_output', 'reasoning'])) return
      return `[${source.text('instructions') ?? 'null'},${source.first('input', firstUser(input) + 1)}]`
    }
    case 'generate': {
      const contents = source.items('contents')
      if (!contents || !answered(contents, ['model'])) return
      return `[${source.text('systemInstruction') ?? source.text('system_instruction') ?? 'null'},${source.first('contents', 1).slice(1, -1) || 'null'}]`
    }
  }
}
