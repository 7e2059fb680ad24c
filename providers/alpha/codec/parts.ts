import type { Part, TextPart, ImagePart } from 'model-proxy'
import { callId } from './ids.ts'

type Raw = Record<string, any>

/** Tracks call ids inside one request: a functionResponse names its call by id or, failing that, by name. */
export class CallLedger {
  private byName = new Map<string, string[]>()
  private names = new Map<string, string>()
  call(name: string, id?: string): string {
    const resolved = id || callId()
    const queue = this.byName.get(name) ?? []
    queue.push(resolved)
    this.byName.set(name, queue)
    this.names.set(resolved, name)
    return resolved
  }
  answer(name: string, id?: string): string {
    if (id) return id
    const queue = this.byName.get(name)
    return queue?.shift() ?? callId()
  }
  nameOf(id: string): string | undefined { return this.names.get(id) }
}

/** One content's parts -> canonical parts. `thought: true` is thinking; a thoughtSignature travels as a signed thinking part. */
export function partsFromGenerate(rawParts: unknown, ledger: CallLedger, unmapped?: Set<string>): Part[] {
  if (!Array.isArray(rawParts)) return []
  const parts: Part[] = []
  for (const raw of rawParts as Raw[]) {
    if (!raw || typeof raw !== 'object') continue
    const signature = typeof raw.thoughtSignature === 'string' ? raw.thoughtSignature : undefined
    if (raw.thought === true) {
      parts.push({ type: 'thinking', text: String(raw.text ?? ''), origin: 'generate', ...(signature && { signature }) })
      continue
    }
    if (signature) parts.push({ type: 'thinking', text: '', signature, origin: 'generate' })
    if (typeof raw.text === 'string') parts.push({ type: 'text', text: raw.text })
    else if (raw.inlineData && typeof raw.inlineData.data === 'string') parts.push({ type: 'image', mediaType: raw.inlineData.mimeType, data: raw.inlineData.data })
    else if (raw.fileData && typeof raw.fileData.fileUri === 'string') parts.push({ type: 'image', mediaType: raw.fileData.mimeType, url: raw.fileData.fileUri })
    else if (raw.functionCall && typeof raw.functionCall.name === 'string') {
      const id = ledger.call(raw.functionCall.name, raw.functionCall.id)
      parts.push({ type: 'tool_call', id, name: raw.functionCall.name, arguments: JSON.stringify(raw.functionCall.args ?? {}) })
    } else if (raw.functionResponse && typeof raw.functionResponse.name === 'string') {
      const content = toolResultText(raw.functionResponse.response)
      parts.push({ type: 'tool_result', callId: ledger.answer(raw.functionResponse.name, raw.functionResponse.id), name: raw.functionResponse.name, content })
    } else if (!signature) {
      // executableCode, codeExecutionResult, videoMetadata...: no canonical form.
      unmapped?.add(`part:${Object.keys(raw).find(key => key !== 'thought') ?? 'empty'}`)
    }
  }
  return parts
}

/**
 * What a functionResponse returned, as the text other families carry: the `result`/`output` string that
 * clients put there, the Vercel AI SDK's `{ name, content }` wrapper unwrapped (the name repeats the
 * call's), else the whole response as JSON so nothing is lost.
 */
export function toolResultText(response: unknown): string {
  const record = (response && typeof response === 'object' ? response : {}) as Raw
  if (typeof record.result === 'string') return record.result
  if (typeof record.output === 'string') return record.output
  if ('content' in record && Object.keys(record).every(key => key === 'content' || key === 'name')) {
    return typeof record.content === 'string' ? record.content : JSON.stringify(record.content ?? null)
  }
  return JSON.stringify(response ?? {})
}

const parseArgs = (text: string) => {
  try {
    const value = JSON.parse(text || '{}')
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {}
  } catch { return {} }
}

function resultObject(content: string | Array<TextPart | ImagePart>): Record<string, unknown> {
  const text = typeof content === 'string' ? content : content.map(p => p.type === 'text' ? p.text : '').join('\n')
  try {
    const value = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value
  } catch {}
  return { result: text }
}

/** Canonical parts -> wire parts. A signature attaches to the next part (the vendor wants it on the functionCall). */
export function partsToGenerate(parts: Part[], ledger: CallLedger): Raw[] {
  const out: Raw[] = []
  let pendingSignature: string | undefined
  for (const part of parts) {
    if (part.type === 'thinking') {
      if (part.origin !== 'generate' || !part.signature) continue
      if (part.text) out.push({ text: part.text, thought: true, thoughtSignature: part.signature })
      else pendingSignature = part.signature
      continue
    }
    let wire: Raw | undefined
    if (part.type === 'text') wire = { text: part.text }
    else if (part.type === 'image') wire = part.data !== undefined ? { inlineData: { mimeType: part.mediaType ?? 'image/png', data: part.data } } : { fileData: { mimeType: part.mediaType ?? 'image/png', fileUri: part.url } }
    else if (part.type === 'tool_call') {
      ledger.call(part.name, part.id)
      wire = { functionCall: { id: part.id, name: part.name, args: parseArgs(part.arguments) } }
    } else if (part.type === 'tool_result') {
      wire = { functionResponse: { id: part.callId, name: part.name ?? ledger.nameOf(part.callId) ?? 'tool', response: resultObject(part.content) } }
    }
    if (!wire) continue
    if (pendingSignature) {
      wire.thoughtSignature = pendingSignature
      pendingSignature = undefined
    }
    out.push(wire)
  }
  return out
}
