import type { CanonicalResponse } from 'model-proxy'
import { blocksFromParts, partsFromBlocks } from './blocks.ts'
import { finishFromMessages, finishToMessages } from './map-finish-reason.ts'
import { usageFromMessages, usageToMessages } from './usage.ts'
import { messageId } from './ids.ts'

type Raw = Record<string, any>

/** A `message` object -> canonical. Never throws. */
export function decodeMessagesResponse(body: unknown): CanonicalResponse {
  const raw: Raw = body && typeof body === 'object' ? body as Raw : {}
  const response: CanonicalResponse = {
    id: typeof raw.id === 'string' ? raw.id : messageId(),
    model: typeof raw.model === 'string' ? raw.model : '',
    parts: partsFromBlocks(raw.content),
    finishReason: finishFromMessages(raw.stop_reason),
  }
  if (typeof raw.stop_sequence === 'string') response.stopSequence = raw.stop_sequence
  const usage = usageFromMessages(raw.usage)
  if (usage) response.usage = usage
  return response
}

/** Canonical -> a `message` object. */
export function encodeMessagesResponse(response: CanonicalResponse): Record<string, unknown> {
  return {
    id: response.id.startsWith('msg_') ? response.id : messageId(),
    type: 'message',
    role: 'assistant',
    model: response.model,
    content: blocksFromParts(response.parts, 'client'),
    stop_reason: finishToMessages(response.finishReason, response.stopSequence),
    stop_sequence: response.stopSequence ?? null,
    usage: usageToMessages(response.usage),
  }
}
