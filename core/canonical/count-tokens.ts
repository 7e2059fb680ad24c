import { countInWorker } from './token-worker-client.ts'
import type { CanonicalRequest, Part } from './types.ts'

/** Per-message framing overhead, as the vendors' own counting guides add. */
const perMessage = 3

/**
 * Counting runs on the tokenizer's own thread (its tables load there, ~0.7 s, and are never loaded by
 * processes that do not count); should a thread not start, here, piece by piece.
 */
async function countAll(texts: string[]): Promise<number[]> {
  try {
    return await countInWorker(texts)
  } catch {
    const { countTexts } = await import('./token-counter.ts')
    return countTexts(texts)
  }
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text': return part.text
    case 'thinking': return part.redacted ? '' : part.text
    case 'tool_call': return `${part.name} ${part.arguments}`
    case 'tool_result': return typeof part.content === 'string' ? part.content : part.content.map(p => p.type === 'text' ? p.text : '').join('\n')
    case 'image': return ''
    // A plain-text document counts as its text; other files count a flat amount (see countRequestTokens).
    case 'file': return part.mediaType?.startsWith('text/') && part.data ? Buffer.from(part.data, 'base64').toString('utf8') : ''
    // A replayed web search: what is readable of it (the vendors' encrypted page content is not).
    case 'web_search': return [part.query ?? '', ...part.sources.map(source => `${source.title ?? ''} ${source.url}`)].join('\n')
  }
}

/** Images count a flat amount: what one ~1 MP image costs on the vendors' published tables. */
const imageTokens = 1600

/** Input tokens of a canonical request, counted locally with a real BPE tokenizer. */
export async function countRequestTokens(request: CanonicalRequest): Promise<number> {
  let total = 0
  const texts: string[] = []
  for (const message of request.messages) {
    total += perMessage
    for (const part of message.parts) {
      if (part.type === 'image' || (part.type === 'file' && !part.mediaType?.startsWith('text/'))) total += imageTokens
      else texts.push(partText(part))
    }
  }
  for (const tool of request.tools ?? []) texts.push(`${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.parameters ?? {})}`)
  for (const count of await countAll(texts)) total += count
  return total
}
