import type { WireFormat } from '../canonical/codec.ts'
import type { Part, StreamEvent, ThinkingPart } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { defineRequestState } from '../kernel/request-state.ts'
import { activeToolMessages } from '../canonical/replay-fit.ts'

/**
 * A chat client has no slot for a reasoning signature (docs/translation.md, "Reasoning and
 * signatures"): the proxy keeps the signed thinking of a translated answer in storage, keyed by the
 * first tool call it came with, and puts it back when the client replays that call. Shared storage
 * (redis) lets another instance restore it. Kept a day: a tool loop does not pause longer.
 */
const slotless = new Set<WireFormat>(['chat'])
const ttlSeconds = 24 * 60 * 60
// Call ids are the vendor's or ours; anything outside a safe alphabet is not a key we made.
const key = (callId: string) => /^[\w-]{1,200}$/.test(callId) ? `signatures:${callId}` : undefined

/** Whether answers of this pair need the store (a slotless client, an upstream that signs). */
export const keepsSignatures = (client: WireFormat, upstream: WireFormat): boolean => slotless.has(client) && upstream !== client && upstream !== 'chat'

/** Signed thinking before each batch of tool calls, under the batch's first call id. */
export async function rememberSignatures(kernel: ProxyKernel, parts: Part[]): Promise<void> {
  let thinking: ThinkingPart[] = []
  const writes: Array<Promise<void>> = []
  for (const part of parts) {
    if (part.type === 'thinking') {
      if (part.signature && part.origin) thinking.push({ ...part })
      continue
    }
    if (part.type !== 'tool_call' || !thinking.length) continue
    const at = key(part.id)
    if (at) writes.push(kernel.storage.setItem(at, thinking, { ttl: ttlSeconds }))
    thinking = []
  }
  await Promise.all(writes).catch(error => kernel.logger.debug(`signature store: ${(error as Error).message}`))
}

/** Collects what `rememberSignatures` needs from a translated stream. */
export function signatureCollector(): { push(event: StreamEvent): void; parts(): Part[] } {
  const parts: Part[] = []
  const thinking = new Map<number, ThinkingPart>()
  return {
    push(event) {
      if (event.type === 'thinking') {
        let part = thinking.get(event.index)
        if (!part) {
          part = { type: 'thinking', text: '' }
          thinking.set(event.index, part)
          parts.push(part)
        }
        if (!event.redacted) part.text += event.delta
        if (event.signature) part.signature = event.signature
        if (event.origin) part.origin ??= event.origin
        if (event.redacted) part.redacted = true
      } else if (event.type === 'tool_call_start') parts.push({ type: 'tool_call', id: event.id, name: event.name, arguments: '' })
    },
    parts: () => parts,
  }
}

/** Requests already looked up (a retry on another upstream does not read again). */
const restored = defineRequestState<true>('signatures restored')

/**
 * Before a chat client's replay goes to an upstream that signs: the active tool turn gets back the
 * signed thinking stored for its first call (its unsigned `reasoning_content` text gives way to it).
 */
export async function restoreSignatures(kernel: ProxyKernel, request: ProxyRequest, upstream: WireFormat): Promise<void> {
  if (!keepsSignatures(request.inbound, upstream) || restored.get(request)) return
  restored.set(request, true)
  const source = kernel.formats.get(request.inbound)
  if (!source) return
  request.canonical ??= source.request.decode(request.body)
  const turn = activeToolMessages(request.canonical.messages)
  const message = turn?.find(m => m.parts.some(part => part.type === 'tool_call'))
  const call = message?.parts.find(part => part.type === 'tool_call')
  const at = call && key(call.id)
  if (!message || !at || message.parts.some(part => part.type === 'thinking' && part.signature)) return
  const stored = await kernel.storage.getItem<ThinkingPart[]>(at).catch(() => null)
  if (!Array.isArray(stored) || !stored.length) return
  message.parts = [...stored, ...message.parts.filter(part => part.type !== 'thinking')]
}
