import type { WireFormat } from './codec.ts'
import { isEnvelope } from './signature.ts'

type Raw = Record<string, any>

const list = (value: unknown): Raw[] => Array.isArray(value) ? value.filter(item => item && typeof item === 'object') : []

/** The formats whose requests have signature slots (a chat request has none, nor a plugin's format). */
export const hasSignatureSlots = (format: WireFormat): boolean => format === 'messages' || format === 'generate' || format === 'responses'

/**
 * Whether a client's request replays one of our envelopes in its format's signature slots
 * (core/canonical/signature.ts): then it cannot go to that format's vendor as it came. Only the slots
 * are looked at (no scan of the whole body), and a chat request has none.
 */
export function replaysEnvelopes(format: WireFormat, body: Raw): boolean {
  switch (format) {
    case 'messages': return list(body.messages).some(message => list(message.content).some(block =>
      (block.type === 'thinking' && isEnvelope(block.signature)) || (block.type === 'redacted_thinking' && isEnvelope(block.data))
      // Another vendor's web search, translated: its results and citations carry our marker, not Anthropic's encryption.
      || (block.type === 'web_search_tool_result' && list(block.content).some(result => isEnvelope(result.encrypted_content)))
      || (block.type === 'text' && list(block.citations).some(citation => isEnvelope(citation.encrypted_index)))))
    case 'generate': return list(body.contents).some(content => list(content.parts).some(part => isEnvelope(part.thoughtSignature)))
    case 'responses': return list(body.input).some(item => item.type === 'reasoning' && isEnvelope(item.encrypted_content))
    // A chat request has no slot; a plugin's format has none the proxy knows.
    default: return false
  }
}
