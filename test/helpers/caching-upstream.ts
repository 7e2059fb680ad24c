import { createHash } from 'node:crypto'
import { startMockUpstream, type MockUpstream } from './mock-openai-server.ts'

/** Rough tokens of a text, like the vendors' 4-characters rule. */
const tokens = (text: string) => Math.ceil(text.length / 4)

export interface CachingUpstream extends MockUpstream {
  /** Upstream key of each request, in order. */
  keys: string[]
}

/**
 * A scripted messages-API upstream with a prompt cache per upstream key: a request reads from the cache
 * the longest prefix (system, then whole messages) this same key has seen before, and reports it as
 * `cache_read_input_tokens`, the rest as `input_tokens`, like the vendor's cache.
 */
export async function startCachingUpstream(extraHeaders: (key: string) => Record<string, string> = () => ({})): Promise<CachingUpstream> {
  const caches = new Map<string, Set<string>>()
  const keys: string[] = []
  const mock = await startMockUpstream(async (request) => {
    const key = request.headers.get('x-api-key') ?? ''
    keys.push(key)
    const body = await request.json() as { model: string; system?: unknown; messages: unknown[] }
    const cache = caches.get(key) ?? new Set<string>()
    caches.set(key, cache)
    const units = [JSON.stringify(body.system ?? ''), ...body.messages.map(message => JSON.stringify(message))]
    const hash = createHash('sha256')
    let running = 0
    let cached = 0
    for (const unit of units) {
      hash.update(unit)
      running += tokens(unit)
      const digest = hash.copy().digest('hex')
      if (cache.has(digest)) cached = running
      cache.add(digest)
    }
    const message = {
      id: `msg_${keys.length}`, type: 'message', role: 'assistant', model: body.model,
      content: [{ type: 'text', text: `ok ${keys.length}` }], stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: running - cached, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: cached },
    }
    return new Response(JSON.stringify(message), { headers: { 'content-type': 'application/json', ...extraHeaders(key) } })
  })
  return Object.assign(mock, { keys })
}
