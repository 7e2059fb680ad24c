import type { WireFormat } from 'model-proxy'

/** What a request for `GET /v1/models[/{id}]` tells about its client. */
export interface ClientSigns { userAgent: string | null; anthropicVersion: boolean; xApiKey: boolean; googKey: boolean }

/**
 * The listing shape a client of `GET /v1/models` expects, told by how it authenticates:
 * `anthropic-version` or `x-api-key` (or the beta CLI's `claude-cli/` User-Agent) is a messages SDK;
 * `x-goog-api-key` or `?key=` is a generateContent SDK (genai 3 lists through `/v1/models`); anyone else
 * gets the OpenAI list.
 */
export function listFormatFor(signs: ClientSigns): WireFormat {
  if (signs.anthropicVersion || signs.xApiKey || (signs.userAgent && /^claude-cli\//i.test(signs.userAgent))) return 'messages'
  if (signs.googKey) return 'generate'
  return 'chat'
}
