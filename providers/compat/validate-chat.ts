import { RequestValidationError } from 'model-proxy'
import type { BodyShape } from 'model-proxy/kit/body'
import { isRoleName } from 'model-proxy/kit/codec'

function range(body: Record<string, unknown>, field: string, min: number, max: number): void {
  const value = body[field]
  if (value === undefined || value === null) return
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || value > max) {
    throw new RequestValidationError(`${field} must be a number between ${min} and ${max}`, field)
  }
}

/** What `validateChatRequest` reads: a body reduced to this is checked the same as the whole (ClientBody.skeleton). */
export const chatShape = {
  messages: [{ role: true }],
  tools: [{ type: true, function: { name: true } }],
  temperature: true, presence_penalty: true, frequency_penalty: true, top_p: true, stop: true, n: true, max_tokens: true,
} satisfies Record<string, BodyShape>

/**
 * The spec's limits for a chat-completions request, checked on every path (also the same-format fast
 * path, which never decodes the body): cheap field checks, no copying.
 */
export function validateChatRequest(body: Record<string, unknown>): void {
  const messages = body.messages
  if (!Array.isArray(messages) || !messages.length) throw new RequestValidationError("'messages' must be a non-empty array", 'messages')
  for (let i = 0; i < messages.length; i++) {
    // Any role name passes: a compatible upstream may define its own, and the decoder skips the ones other formats lack.
    const message = messages[i] as { role?: unknown } | null
    if (!message || typeof message !== 'object' || !isRoleName(message.role)) {
      throw new RequestValidationError(message && typeof message === 'object' ? `messages[${i}].role must be a role name (system, user, assistant, tool, ...)` : `messages[${i}] must be an object with a role`, `messages[${i}].role`)
    }
  }
  range(body, 'temperature', 0, 2)
  range(body, 'presence_penalty', -2, 2)
  range(body, 'frequency_penalty', -2, 2)
  range(body, 'top_p', 0, 1)
  const stop = body.stop
  if (stop !== undefined && stop !== null) {
    const list = typeof stop === 'string' ? [stop] : stop
    if (!Array.isArray(list) || list.some(item => typeof item !== 'string')) throw new RequestValidationError('stop must be a string or an array of strings', 'stop')
    if (list.length > 4) throw new RequestValidationError('stop allows at most 4 sequences', 'stop')
  }
  if (body.n !== undefined && body.n !== null && (!Number.isInteger(body.n) || (body.n as number) < 1)) throw new RequestValidationError('n must be a positive integer', 'n')
  if (body.max_tokens !== undefined && body.max_tokens !== null && (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1)) throw new RequestValidationError('max_tokens must be a positive integer', 'max_tokens')
  const tools = body.tools
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) throw new RequestValidationError('tools must be an array', 'tools')
    tools.forEach((tool, i) => {
      if (!tool || typeof tool !== 'object' || typeof (tool as { type?: unknown }).type !== 'string') throw new RequestValidationError(`tools[${i}].type must be 'function'`, `tools[${i}].type`)
      // Other tool types (`custom`, a compatible server's own) pass through; only function tools translate.
      if ((tool as { type?: unknown }).type === 'function' && typeof (tool as { function?: { name?: unknown } }).function?.name !== 'string') throw new RequestValidationError(`tools[${i}].function.name must be a string`, `tools[${i}].function.name`)
    })
  }
}
