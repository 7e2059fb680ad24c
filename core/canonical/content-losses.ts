import type { WireFormat } from './codec.ts'
import type { FilePart, Message } from './types.ts'
import { fileIdValidAt } from './files.ts'

/** Content a target format cannot carry: a document (`file`), or the error flag of a tool result (`isError`). */
export type ContentLoss = 'file' | 'isError'

/** Whether an upstream format can carry this document (the encoders skip the ones it cannot). */
export function fileCarried(part: FilePart, upstream: WireFormat): boolean {
  if (part.data === undefined && part.url === undefined) return fileIdValidAt(part, upstream)
  switch (upstream) {
    // chat `file` parts take inline data or an upload id, no URL.
    case 'chat': return part.data !== undefined || fileIdValidAt(part, upstream)
    // `document` blocks take PDFs (inline or by URL) and plain text.
    case 'messages': return part.mediaType === 'application/pdf' || Boolean(part.mediaType?.startsWith('text/')) || part.data === undefined
    default: return true
  }
}

/** The kinds of content of `messages` that `upstream` has no place for, each named once. */
export function contentLosses(messages: Message[], upstream: WireFormat): ContentLoss[] {
  const losses = new Set<ContentLoss>()
  const flagsErrors = upstream === 'messages' || upstream === 'generate'
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'file' && !fileCarried(part, upstream)) losses.add('file')
      else if (part.type === 'tool_result' && part.isError && !flagsErrors) losses.add('isError')
    }
  }
  return [...losses]
}
