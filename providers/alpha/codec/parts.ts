import type { FilePart, Part, TextPart, ImagePart, ThinkingPart } from 'model-proxy'
import { isImageType } from 'model-proxy/kit/codec'
import { signatureFromClient, signatureToClient, signatureToUpstream } from 'model-proxy/kit/signatures'
import { callId } from './ids.ts'

/**
 * Google's documented value for a functionCall whose signature is lost (history from another model):
 * Gemini 3 rejects a model turn's first functionCall without a thoughtSignature, and skips validation
 * for this one.
 */
export const skipSignature = 'skip_thought_signature_validator'

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

/**
 * One content's parts -> canonical parts. `thought: true` is thinking; a thoughtSignature travels as a
 * signed thinking part. `joinRuns` (answers): Gemini's thought parts in a row are one thinking, signed by
 * the last signature among them, and its text parts in a row one text, as a stream reads them (it has
 * no boundary between them).
 */
export function partsFromGenerate(rawParts: unknown, ledger: CallLedger, unmapped?: Set<string>, joinRuns = false): Part[] {
  if (!Array.isArray(rawParts)) return []
  const parts: Part[] = []
  // The thinking or text the previous raw part made, while it may take the next one's text.
  let thought: ThinkingPart | undefined
  let said: TextPart | undefined
  for (const raw of rawParts as Raw[]) {
    const joinable = thought
    const sayable = said
    thought = undefined
    said = undefined
    if (!raw || typeof raw !== 'object') continue
    const slot = typeof raw.thoughtSignature === 'string' && raw.thoughtSignature ? signatureFromClient('generate', raw.thoughtSignature) : undefined
    const signature = slot?.signature
    const origin = slot ? slot.origin : 'generate'
    const signed = { ...(origin && { origin }), ...(signature && { signature }), ...(slot?.redacted && { redacted: true }) }
    if (raw.thought === true) {
      const text = slot?.redacted ? '' : String(raw.text ?? '')
      // Another vendor's signature closes the thinking streamed before it as separate thought parts:
      // it signs their whole text (messages), so they become one part again.
      if (!text && signature && origin !== 'generate' && !slot?.redacted) parts.push({ type: 'thinking', text: takeUnsignedThinking(parts), ...signed })
      else if (joinable && origin === 'generate' && !slot?.redacted) {
        joinable.text += text
        if (signature) joinable.signature = signature
        thought = joinable
      } else {
        const part: ThinkingPart = { type: 'thinking', text, ...signed }
        parts.push(part)
        if (joinRuns && origin === 'generate' && !slot?.redacted) thought = part
      }
      if (unmapped) for (const key of Object.keys(raw)) if (!partKeys.has(key)) unmapped.add(`part:${key}`)
      continue
    }
    if (signature) parts.push({ type: 'thinking', text: '', ...signed })
    if (typeof raw.text === 'string' && sayable && !signature) (said = sayable).text += raw.text
    else if (typeof raw.text === 'string') {
      const part: TextPart = { type: 'text', text: raw.text }
      parts.push(part)
      if (joinRuns) said = part
    }
    else if (raw.inlineData && typeof raw.inlineData.data === 'string') parts.push(media(raw.inlineData.mimeType, { data: raw.inlineData.data }))
    else if (raw.fileData && typeof raw.fileData.fileUri === 'string') parts.push(media(raw.fileData.mimeType, { url: raw.fileData.fileUri }))
    else if (raw.functionCall && typeof raw.functionCall.name === 'string') {
      const id = ledger.call(raw.functionCall.name, raw.functionCall.id)
      for (const key of Object.keys(raw.functionCall)) if (!callKeys.has(key)) unmapped?.add(`functionCall.${key}`)
      parts.push({ type: 'tool_call', id, name: raw.functionCall.name, arguments: JSON.stringify(raw.functionCall.args ?? {}) })
    } else if (raw.functionResponse && typeof raw.functionResponse.name === 'string') {
      const response = raw.functionResponse.response
      for (const key of Object.keys(raw.functionResponse)) if (!responseKeys.has(key)) unmapped?.add(`functionResponse.${key}`)
      const failed = isFailure(response)
      const text = toolResultText(failed && Object.keys(response).length === 1 ? { result: response.error } : response)
      // Multimodal function responses carry their images in `parts`.
      const responseParts = Array.isArray(raw.functionResponse.parts) ? raw.functionResponse.parts as Raw[] : []
      const images = responseParts.flatMap(p => p?.inlineData && typeof p.inlineData.data === 'string' && isImageType(p.inlineData.mimeType) ? [{ type: 'image' as const, mediaType: p.inlineData.mimeType, data: p.inlineData.data }] : [])
      // Tool results hold text and images: a document (a PDF, a fileData) returned by a function is named.
      if (images.length < responseParts.length) unmapped?.add('functionResponse.parts')
      for (const p of responseParts) for (const key of Object.keys(p ?? {})) if (key !== 'inlineData') unmapped?.add(`functionResponse.parts.${key}`)
      for (const p of responseParts) for (const key of Object.keys(p?.inlineData ?? {})) if (!mediaKeys.has(key)) unmapped?.add(`inlineData.${key}`)
      const content = images.length ? [...(text ? [{ type: 'text' as const, text }] : []), ...images] : text
      parts.push({ type: 'tool_result', callId: ledger.answer(raw.functionResponse.name, raw.functionResponse.id), name: raw.functionResponse.name, content, ...(failed && { isError: true }) })
    } else if (!slot) {
      // executableCode, codeExecutionResult, toolCall...: no canonical form.
      unmapped?.add(`part:${Object.keys(raw).find(key => key !== 'thought') ?? 'empty'}`)
    }
    // What rides beside a mapped part (a video's clip `videoMetadata`, `mediaResolution`, `partMetadata`) is lost with it.
    if (unmapped) for (const key of Object.keys(raw)) if (!partKeys.has(key)) unmapped.add(`part:${key}`)
    if (unmapped) for (const media of ['inlineData', 'fileData'] as const) for (const key of Object.keys(raw[media] ?? {})) if (!mediaKeys.has(key)) unmapped.add(`${media}.${key}`)
  }
  return parts
}

/** Keys of a functionCall and a functionResponse that canonical calls and results carry. */
const callKeys = new Set(['name', 'args', 'id'])
const responseKeys = new Set(['name', 'response', 'id', 'parts'])

/** Keys of inline and referenced media that canonical parts carry (`displayName` and newer ones are named). */
const mediaKeys = new Set(['mimeType', 'data', 'fileUri'])

/** Keys of a part that become canonical parts (or their signatures). */
const partKeys = new Set(['text', 'thought', 'thoughtSignature', 'inlineData', 'fileData', 'functionCall', 'functionResponse'])

/** Removes the unsigned thinking parts at the end of `parts` and returns their joined text. */
function takeUnsignedThinking(parts: Part[]): string {
  let start = parts.length
  while (start > 0) {
    const part = parts[start - 1]!
    if (part.type !== 'thinking' || part.signature) break
    start--
  }
  return parts.splice(start).map(part => part.type === 'thinking' ? part.text : '').join('')
}

/** An image, or any other media type as a document. */
function media(mimeType: unknown, where: { data: string } | { url: string }): ImagePart | FilePart {
  const mediaType = typeof mimeType === 'string' ? mimeType : undefined
  if (mediaType === undefined || isImageType(mediaType)) return { type: 'image', ...(mediaType && { mediaType }), ...where }
  return { type: 'file', mediaType, ...where }
}

/** The vendor's convention: a failed call answers `{error: ...}` (and no `output`). */
const isFailure = (response: unknown): response is { error: unknown } =>
  Boolean(response) && typeof response === 'object' && 'error' in (response as Raw) && !('output' in (response as Raw)) && !('result' in (response as Raw))

/**
 * What a functionResponse returned, as the text other families carry: the `result`/`output` string that
 * clients put there, the Vercel AI SDK's `{ name, content }` wrapper unwrapped (the name repeats the
 * call's), else the whole response as JSON so nothing is lost.
 */
export function toolResultText(response: unknown): string {
  const record = (response && typeof response === 'object' ? response : {}) as Raw
  // `result` or `output` unwrapped only alone: fields beside it (an exit code, `truncated`) are the tool's answer too.
  const alone = Object.keys(record).length === 1
  if (alone && typeof record.result === 'string') return record.result
  if (alone && 'result' in record) return JSON.stringify(record.result ?? null)
  if (alone && typeof record.output === 'string') return record.output
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

/** A tool result as the `response` object: a JSON object as it is, text under `result`, a failure under `error`. */
export function resultObject(content: string | Array<TextPart | ImagePart>, isError?: boolean): Record<string, unknown> {
  const text = typeof content === 'string' ? content : content.flatMap(p => p.type === 'text' ? [p.text] : []).join('\n')
  let value: unknown = text
  // Only text that can be JSON is parsed: a failed JSON.parse builds a SyntaxError with its stack, ~7 µs
  // per 3 KB tool result here, on every result of an agent's history (40 of them in 150 KB: 279 µs).
  if (mayBeJson(text, isError)) try { value = JSON.parse(text) } catch {}
  if (isError) return { error: value }
  return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : { result: text }
}

/**
 * Whether JSON.parse of `text` could give what `resultObject` keeps: an object (a `{` first), or for an
 * error any JSON value (its first character one a value starts with). Leading whitespace is skipped as
 * JSON.parse skips it.
 */
function mayBeJson(text: string, anyValue?: boolean): boolean {
  let i = 0
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13 || text.charCodeAt(i) === 9)) i++
  const c = text[i]
  if (c === '{') return true
  return !!anyValue && c !== undefined && '["-0123456789tfn'.includes(c)
}

/** Images a tool returned: sent as inline parts right after its functionResponse, which every model reads. */
const resultImages = (content: string | Array<TextPart | ImagePart>) =>
  typeof content === 'string' ? [] : content.flatMap(p => p.type === 'image' ? [imageToWire(p)] : [])

const imageToWire = (part: ImagePart | FilePart): Raw => part.data !== undefined
  ? { inlineData: { mimeType: part.mediaType ?? (part.type === 'image' ? 'image/png' : 'application/pdf'), data: part.data } }
  : { fileData: { mimeType: part.mediaType ?? (part.type === 'image' ? 'image/png' : 'application/pdf'), fileUri: part.url } }

/**
 * Canonical parts of one content -> wire parts. A bare signature attaches to the next part (the vendor
 * wants it on the functionCall). Toward the upstream only Gemini's own signatures go, and a first
 * functionCall left without one gets the documented bypass; a client gets thought text, other vendors'
 * signatures in an envelope, and a marked first functionCall (so its replay is vetted, see signature.ts).
 */
export function partsToGenerate(parts: Part[], ledger: CallLedger, audience: 'client' | 'upstream'): Raw[] {
  const out: Raw[] = []
  let pendingSignature: string | undefined
  let firstCall = true
  for (const part of parts) {
    if (part.type === 'thinking') {
      const signature = audience === 'upstream' ? signatureToUpstream('generate', part) : signatureToClient('generate', part)
      const text = part.redacted ? '' : part.text
      if (text && (signature || audience === 'client')) out.push({ text, thought: true, ...(signature && { thoughtSignature: signature }) })
      // Gemini's bare signature belongs on the part after it; another vendor's signs the thinking before.
      else if (signature && part.origin === 'generate') pendingSignature = signature
      else if (signature) out.push({ text: '', thought: true, thoughtSignature: signature })
      continue
    }
    let wire: Raw | undefined
    const extra: Raw[] = []
    // An empty text says nothing to a client (a stream sends no part for it), unless it carries a signature.
    if (part.type === 'text') wire = part.text || pendingSignature || audience === 'upstream' ? { text: part.text } : undefined
    else if (part.type === 'image') wire = imageToWire(part)
    // An upload id of another vendor means nothing here.
    else if (part.type === 'file') wire = part.data !== undefined || part.url !== undefined ? imageToWire(part) : undefined
    else if (part.type === 'tool_call') {
      ledger.call(part.name, part.id)
      wire = { functionCall: { id: part.id, name: part.name, args: parseArgs(part.arguments) } }
    } else if (part.type === 'tool_result') {
      wire = { functionResponse: { id: part.callId, name: part.name ?? ledger.nameOf(part.callId) ?? 'tool', response: resultObject(part.content, part.isError) } }
      extra.push(...resultImages(part.content))
    }
    if (!wire) continue
    if (pendingSignature) {
      wire.thoughtSignature = pendingSignature
      pendingSignature = undefined
    } else if (wire.functionCall && firstCall) {
      wire.thoughtSignature = audience === 'upstream' ? skipSignature : signatureToClient('generate', {}, true)
    }
    if (wire.functionCall) firstCall = false
    out.push(wire, ...extra)
  }
  return out
}
