import { type ImagePart, type TextPart, RequestValidationError } from 'model-proxy'
import { isObject, str } from './guards.ts'

/** `data:<type>;base64,<data>` becomes an image by value; any other URL stays a reference. */
export function imageFromUrl(url: string): ImagePart {
  const match = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s.exec(url)
  if (!match) return { type: 'image', url }
  return match[1] ? { type: 'image', mediaType: match[1], data: match[3] } : { type: 'image', data: match[3] }
}

export function imageToUrl(image: ImagePart): string {
  if (image.data !== undefined) return `data:${image.mediaType ?? 'image/png'};base64,${image.data}`
  return image.url ?? ''
}

/**
 * Files the canonical parts cannot carry (an uploaded `file_id`, a PDF) stay visible as a text
 * placeholder instead of vanishing, so the model at least knows something was attached.
 */
function placeholder(kind: string, part: Record<string, unknown>): TextPart {
  const fields = ['filename', 'file_id', 'file_url'].filter(key => typeof part[key] === 'string').map(key => `${key}=${part[key] as string}`)
  return { type: 'text', text: `[${kind}${fields.length ? ' ' + fields.join(' ') : ''}]` }
}

/** One content part of a message or of a function_call_output; `param` names it in errors. */
export function decodeContentPart(part: unknown, param: string): TextPart | ImagePart {
  if (!isObject(part)) throw new RequestValidationError(`${param} must be an object`, param)
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text': {
      const text = str(part.text)
      if (text === undefined) throw new RequestValidationError(`${param}.text must be a string`, param)
      return { type: 'text', text }
    }
    case 'refusal': return { type: 'text', text: str(part.refusal) ?? '' }
    case 'input_image': {
      const url = str(part.image_url)
      if (url) return imageFromUrl(url)
      if (typeof part.file_id === 'string') return placeholder('input_image', part)
      throw new RequestValidationError(`${param} needs image_url or file_id`, param)
    }
    case 'input_file': return placeholder('input_file', part)
    // A part type this decoder does not know (the vendor's newest) passes untouched on the same-format
    // path; elsewhere the model at least sees that something was there.
    default:
      if (typeof part.type !== 'string') throw new RequestValidationError(`${param}.type must be a string`, param)
      return placeholder(part.type, part)
  }
}

/** `content` of a message: a string is one text part. */
export function decodeContent(content: unknown, param: string): Array<TextPart | ImagePart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  if (!Array.isArray(content)) throw new RequestValidationError(`${param} must be a string or an array`, param)
  return content.map((part, i) => decodeContentPart(part, `${param}[${i}]`))
}
