import { type FilePart, type ImagePart, type TextPart, RequestValidationError } from 'model-proxy'
import { dataUrl, fileCarried, fileIdValidAt, parseDataUrl, splitDataUrl } from 'model-proxy/kit/codec'
import { isObject, str } from './guards.ts'

/** `data:<type>;base64,<data>` becomes an image by value; any other URL stays a reference. */
export function imageFromUrl(url: string): ImagePart {
  const split = splitDataUrl(url)
  const match = split && /^data:([^;,]*)((?:;[^;,]*)*);base64$/.exec(split.header)
  if (!match) return { type: 'image', url }
  return match[1] ? { type: 'image', mediaType: match[1], data: split!.data } : { type: 'image', data: split!.data }
}

export function imageToUrl(image: ImagePart): string {
  if (image.data !== undefined) return dataUrl(image.mediaType ?? 'image/png', image.data)
  return image.url ?? ''
}

/**
 * Parts the canonical ones cannot carry (an image known only by `file_id`, a part type of the vendor's
 * newest) stay visible as a text placeholder instead of vanishing, so the model knows something was there.
 */
function placeholder(kind: string, part: Record<string, unknown>): TextPart {
  const fields = ['filename', 'file_id', 'file_url'].filter(key => typeof part[key] === 'string').map(key => `${key}=${part[key] as string}`)
  return { type: 'text', text: `[${kind}${fields.length ? ' ' + fields.join(' ') : ''}]` }
}

/** `input_file`: inline `file_data` (a data URL), `file_url`, or an upload's `file_id`. */
function fileFromPart(part: Record<string, unknown>, param: string): FilePart {
  const file: FilePart = { type: 'file' }
  const inline = str(part.file_data)
  if (inline) Object.assign(file, parseDataUrl(inline) ?? { data: inline })
  else if (str(part.file_url)) file.url = part.file_url as string
  else if (str(part.file_id)) Object.assign(file, { fileId: part.file_id, origin: 'responses' })
  else throw new RequestValidationError(`${param} needs file_data, file_url or file_id`, param)
  if (str(part.filename)) file.filename = part.filename as string
  if (!file.mediaType && file.filename?.toLowerCase().endsWith('.pdf')) file.mediaType = 'application/pdf'
  return file
}

/** A document as an `input_file` part; undefined when it is another vendor's upload, audio or video. */
export function fileToPart(file: FilePart): Record<string, unknown> | undefined {
  if (!fileCarried(file, 'responses')) return undefined
  const part: Record<string, unknown> = { type: 'input_file' }
  if (file.data !== undefined) part.file_data = dataUrl(file.mediaType, file.data)
  else if (file.url !== undefined) part.file_url = file.url
  else if (fileIdValidAt(file, 'responses')) part.file_id = file.fileId
  else return undefined
  // The API wants a name with inline data.
  if (file.filename || part.file_data) part.filename = file.filename ?? 'document'
  return part
}

/** One content part of a message or of a function_call_output; `param` names it in errors. */
export function decodeContentPart(part: unknown, param: string): TextPart | ImagePart | FilePart {
  if (!isObject(part)) throw new RequestValidationError(`${param} must be an object`, param)
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text': {
      const text = str(part.text)
      if (text === undefined) throw new RequestValidationError(`${param}.text must be a string`, param)
      return { type: 'text', text }
    }
    case 'refusal': return { type: 'text', text: str(part.refusal) ?? '', refusal: true }
    case 'input_image': {
      const url = str(part.image_url)
      // `auto`, the default, asks for nothing: only another detail level is kept.
      const detail = str(part.detail)
      if (url) return detail && detail !== 'auto' ? { ...imageFromUrl(url), detail } : imageFromUrl(url)
      if (typeof part.file_id === 'string') return placeholder('input_image', part)
      throw new RequestValidationError(`${param} needs image_url or file_id`, param)
    }
    case 'input_file': return fileFromPart(part, param)
    // A part type this decoder does not know (the vendor's newest) passes untouched on the same-format
    // path; elsewhere the model at least sees that something was there.
    default:
      if (typeof part.type !== 'string') throw new RequestValidationError(`${param}.type must be a string`, param)
      return placeholder(part.type, part)
  }
}

/** `content` of a message: a string is one text part. */
export function decodeContent(content: unknown, param: string): Array<TextPart | ImagePart | FilePart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  if (!Array.isArray(content)) throw new RequestValidationError(`${param} must be a string or an array`, param)
  return content.map((part, i) => decodeContentPart(part, `${param}[${i}]`))
}

/** What each part type carries canonically; `annotations` and `logprobs` describe an answer replayed. */
const partKeys: Record<string, ReadonlySet<string>> = {
  input_text: new Set(['type', 'text']),
  output_text: new Set(['type', 'text', 'annotations', 'logprobs']),
  text: new Set(['type', 'text']),
  refusal: new Set(['type', 'refusal']),
  input_image: new Set(['type', 'image_url', 'file_id', 'detail']),
  input_file: new Set(['type', 'file_data', 'file_url', 'file_id', 'filename']),
}

/**
 * Keys of known parts that no canonical part has (a newer API's), named `<type>.<key>`; an image's
 * `detail` other than `auto` too: other formats have no detail level.
 */
export function nameUnknownPartKeys(content: unknown, unmapped: Set<string>): void {
  for (const part of Array.isArray(content) ? content : []) {
    const keys = isObject(part) ? partKeys[part.type as string] : undefined
    if (!keys) continue
    for (const key of Object.keys(part)) if (!keys.has(key)) unmapped.add(`${part.type as string}.${key}`)
  }
}
