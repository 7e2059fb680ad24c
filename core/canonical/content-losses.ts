import type { WireFormat } from './codec.ts'
import type { FilePart, Message } from './types.ts'
import { chatAudioFormat, fileIdValidAt } from './files.ts'

/**
 * Content a target format cannot carry: a document or other media (`file`), a recording (`audio`), the
 * error flag of a tool result (`isError`), a replayed hosted web search (`webSearchResult`: only
 * Anthropic's own goes back to the messages API, whose results are encrypted; no other API takes a
 * search's results as input), an image's resolution (`imageDetail`: chat and responses only).
 */
export type ContentLoss = 'file' | 'audio' | 'isError' | 'webSearchResult' | 'imageDetail'

const kindOf = (part: FilePart) => part.mediaType?.split('/')[0]

/** Whether an upstream format can carry this document or recording (the encoders skip the ones it cannot). */
export function fileCarried(part: FilePart, upstream: WireFormat): boolean {
  if (part.data === undefined && part.url === undefined) return fileIdValidAt(part, upstream)
  const kind = kindOf(part)
  switch (upstream) {
    // `input_audio` takes WAV and MP3 by value; `file` parts take inline documents or an upload id, no URL.
    case 'chat': return kind === 'audio' ? part.data !== undefined && chatAudioFormat(part.mediaType) !== undefined : kind !== 'video' && (part.data !== undefined || fileIdValidAt(part, upstream))
    // `document` blocks take PDFs (inline or by URL) and inline plain text: a URL of another type is no PDF.
    case 'messages': return part.mediaType === 'application/pdf' || (part.data !== undefined ? kind === 'text' : part.mediaType === undefined)
    // `input_file` holds documents: the API has no audio or video input.
    case 'responses': return kind !== 'audio' && kind !== 'video'
    default: return true
  }
}

/** The kinds of content of `messages` that `upstream` has no place for, each named once. */
export function contentLosses(messages: Message[], upstream: WireFormat): ContentLoss[] {
  const losses = new Set<ContentLoss>()
  const flagsErrors = upstream === 'messages' || upstream === 'generate'
  const takesDetail = upstream === 'chat' || upstream === 'responses'
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'file' && !fileCarried(part, upstream)) losses.add(kindOf(part) === 'audio' ? 'audio' : 'file')
      else if (part.type === 'tool_result' && part.isError && !flagsErrors) losses.add('isError')
      else if (part.type === 'web_search' && (upstream !== 'messages' || part.origin !== 'messages')) losses.add('webSearchResult')
      else if (part.type === 'image' && part.detail && !takesDetail) losses.add('imageDetail')
      else if (part.type === 'tool_result' && typeof part.content !== 'string' && part.content.some(p => p.type === 'image' && p.detail) && !takesDetail) losses.add('imageDetail')
    }
  }
  return [...losses]
}
