import { RequestValidationError } from 'model-proxy'

type Raw = Record<string, unknown>
const isObject = (value: unknown): value is Raw => !!value && typeof value === 'object' && !Array.isArray(value)
const refuse = (message: string, field: string): never => { throw new RequestValidationError(message, field) }

/** A Part's fields that are no data of its own (the proto's `data` oneof holds text, inlineData, functionCall...). */
const partMetadata = new Set(['thought', 'thoughtSignature', 'thought_signature', 'videoMetadata', 'video_metadata', 'partMetadata', 'part_metadata', 'mediaResolution', 'media_resolution'])

/**
 * A `:countTokens` body as the Gemini API reads it (CountTokensRequest), in generateContent's shape to
 * count. Either `contents`, which is optional (none counts nothing), or a whole `generateContentRequest`
 * (the proto spelling `generate_content_request` too), whose `model` and `contents` are required; and
 * Content and Part of the types the proto has, a part holding its data. The endpoint answers here,
 * never upstream: without this a malformed body was counted, a skipped part as no tokens. Field names
 * are not refused: Vertex's countTokens takes `systemInstruction`, `tools` and `generationConfig` at
 * the top, and the vendor adds fields.
 */
export function countTokensBody(raw: Raw): Raw {
  const whole = raw.generateContentRequest ?? raw.generate_content_request
  if (whole !== undefined && whole !== null) {
    if (!isObject(whole)) refuse('generateContentRequest must be an object', 'generateContentRequest')
    const request = whole as Raw
    if (typeof request.model !== 'string' || !request.model) refuse('generateContentRequest.model is required (models/{model})', 'generateContentRequest.model')
    if (!Array.isArray(request.contents)) refuse('generateContentRequest.contents must be an array', 'generateContentRequest.contents')
    checkRequest(request, 'generateContentRequest.')
    return request
  }
  if (raw.contents === undefined || raw.contents === null) return { ...raw, contents: [] }
  if (!Array.isArray(raw.contents)) refuse('contents must be an array', 'contents')
  checkRequest(raw, '')
  return raw
}

function checkRequest(body: Raw, prefix: string): void {
  ;(body.contents as unknown[]).forEach((content, i) => checkContent(content, `${prefix}contents[${i}]`, true))
  const system = body.systemInstruction ?? body.system_instruction
  if (system !== undefined && system !== null) {
    if (!isObject(system)) refuse(`${prefix}systemInstruction must be an object (a Content)`, `${prefix}systemInstruction`)
    checkContent(system, `${prefix}systemInstruction`, false)
  }
  if (body.tools !== undefined && body.tools !== null && !Array.isArray(body.tools)) refuse(`${prefix}tools must be an array`, `${prefix}tools`)
}

function checkContent(content: unknown, at: string, turn: boolean): void {
  if (!isObject(content)) return refuse(`${at} must be an object`, at)
  // A turn is the user's or the model's (unset: the user's); `function` is the older name of a tool result's turn.
  const role = content.role
  if (turn && role !== undefined && role !== '' && role !== 'user' && role !== 'model' && role !== 'function') refuse(`${at}.role must be user or model`, `${at}.role`)
  const parts = content.parts
  if (parts === undefined || parts === null) return
  if (!Array.isArray(parts)) refuse(`${at}.parts must be an array`, `${at}.parts`)
  ;(parts as unknown[]).forEach((part, j) => checkPart(part, `${at}.parts[${j}]`))
}

function checkPart(part: unknown, at: string): void {
  if (!isObject(part)) return refuse(`${at} must be an object`, at)
  if (!Object.keys(part).some(key => !partMetadata.has(key))) refuse(`${at}: required oneof field 'data' must have one initialized field`, at)
  if (part.text !== undefined && typeof part.text !== 'string') refuse(`${at}.text must be a string`, `${at}.text`)
}
