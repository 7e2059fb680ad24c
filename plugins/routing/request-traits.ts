import type { CanonicalRequest } from 'model-proxy'

/** What a scenario rule can ask about a request (docs/agent-routing.md). */
export interface RequestTraits {
  thinking: boolean
  images: boolean
  webSearch: boolean
  subAgent: boolean
  background: boolean
}

/** A background call is small and tool-less: an agent's title, topic or summary request. */
export const backgroundMaxTokens = 1024

type Body = Record<string, unknown>

/** Server web-search tools in every client format: messages `web_search_*`, responses `web_search[_preview]`, generateContent `googleSearch`, chat `web_search_options`. */
export function hasWebSearch(body: Body): boolean {
  if (body.web_search_options) return true
  if (!Array.isArray(body.tools)) return false
  return body.tools.some((tool) => {
    if (!tool || typeof tool !== 'object') return false
    const t = tool as Body
    return (typeof t.type === 'string' && t.type.startsWith('web_search')) || 'googleSearch' in t || 'google_search' in t || 'googleSearchRetrieval' in t
  })
}

/** Codex marks sub-agent turns with `x-openai-subagent` and `x-codex-parent-thread-id`. */
export function isSubAgent(headers: Headers): boolean {
  const marker = headers.get('x-openai-subagent')
  return (!!marker && marker !== 'false' && marker !== '0') || !!headers.get('x-codex-parent-thread-id')
}

/** Codex says what a request is for in `x-codex-turn-metadata.request_kind`; anything but a turn runs in the background. */
function codexKind(headers: Headers): string | undefined {
  const raw = headers.get('x-codex-turn-metadata')
  if (!raw) return
  try {
    const kind = (JSON.parse(raw) as { request_kind?: unknown }).request_kind
    return typeof kind === 'string' ? kind : undefined
  } catch {}
}

export function traitsOf(canonical: CanonicalRequest, body: Body, headers: Headers): RequestTraits {
  const effort = canonical.reasoning?.effort
  const thinking = !!canonical.reasoning && effort !== 'none' && canonical.reasoning.budgetTokens !== 0
  const images = canonical.messages.some(message => message.parts.some(part => part.type === 'image'
    || (part.type === 'tool_result' && Array.isArray(part.content) && part.content.some(inner => inner.type === 'image'))))
  const kind = codexKind(headers)
  const toolless = !canonical.tools?.length
  const background = kind !== undefined ? kind !== 'turn' : toolless && !thinking && canonical.maxTokens !== undefined && canonical.maxTokens <= backgroundMaxTokens
  return { thinking, images, webSearch: hasWebSearch(body), subAgent: isSubAgent(headers), background }
}
