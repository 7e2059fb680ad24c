import type { WireFormat } from '../../core/canonical/codec.ts'

type Raw = Record<string, any>

/**
 * What each vendor checks about replayed reasoning, as its documentation states it: `issued` maps each
 * signature the vendor made to the thinking text it signed. Returns the vendor's complaint, or undefined.
 * - messages: every thinking block carries a signature the vendor made, over the same text; with thinking
 *   on, the assistant turn a tool result continues starts with thinking (or redacted thinking).
 * - generate (Gemini 3): any thoughtSignature is one it made or the documented bypass value; each model
 *   turn's first functionCall carries one.
 * - responses: a reasoning item's encrypted_content is one it made (stateless, `store: false`).
 * - chat: signs nothing.
 */
export function vendorComplaint(format: WireFormat, body: Raw, issued: Map<string, string>): string | undefined {
  switch (format) {
    case 'messages': {
      for (const message of body.messages ?? []) {
        for (const block of Array.isArray(message.content) ? message.content : []) {
          if (block.type === 'thinking' && (!issued.has(block.signature) || issued.get(block.signature) !== block.thinking)) return 'Invalid `signature` in `thinking` block'
          if (block.type === 'redacted_thinking' && !issued.has(block.data)) return 'Invalid `data` in `redacted_thinking` block'
        }
      }
      const on = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive'
      const messages = body.messages ?? []
      const last = messages.at(-1)
      const continues = last?.role === 'user' && Array.isArray(last.content) && last.content.some((block: Raw) => block.type === 'tool_result')
      const assistant = messages.at(-2)
      if (on && continues && assistant?.role === 'assistant' && !['thinking', 'redacted_thinking'].includes(assistant.content?.[0]?.type)) {
        return 'Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.'
      }
      return undefined
    }
    case 'generate': {
      for (const content of body.contents ?? []) {
        if (content.role !== 'model') continue
        let first = true
        for (const part of content.parts ?? []) {
          const signature = part.thoughtSignature
          if (signature !== undefined && signature !== 'skip_thought_signature_validator' && !issued.has(signature)) return 'Corrupted thought signature.'
          if (part.functionCall && first && !signature) return 'Function call is missing a thought_signature in functionCall parts.'
          if (part.functionCall) first = false
        }
      }
      return undefined
    }
    case 'responses': {
      for (const item of Array.isArray(body.input) ? body.input : []) {
        if (item.type !== 'reasoning') continue
        if (!issued.has(item.encrypted_content)) return 'The encrypted content for item could not be verified.'
      }
      return undefined
    }
    case 'chat': return undefined
  }
}
