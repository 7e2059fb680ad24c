import type { WireFormat } from './codec.ts'
import type { FilePart, Message } from './types.ts'
import { fileIdValidAt } from './files.ts'

/**
 * Content a target format cannot carry: a document (`file`), the error flag of a tool result (`isError`),
 * a replayed hosted web search (`webSearchResult`: only Anthropic's own goes back to the messages API,
 * whose results are encrypted; no other API takes a search's results as input).
 */
export type ContentLoss = 'file' | 'isError' | 'webSearchResult'

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
      else if (part.type === 'web_search' && (upstream !== 'messages' || part.origin !== 'messages')) losses.add('webSearchResult')
    }
  }
  return [...losses]
}
