import type { CanonicalRequest, Part } from './types.ts'

/** Per-message framing overhead, as the vendors' own counting guides add. */
const perMessage = 3

let encoder: ((text: string) => number) | undefined

/** gpt-tokenizer (o200k_base), loaded on first use: its tables are large and most processes never count. */
async function tokenizer(): Promise<(text: string) => number> {
  if (!encoder) {
    const { countTokens } = await import('gpt-tokenizer')
    encoder = text => countTokens(text)
  }
  return encoder
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text': return part.text
    case 'thinking': return part.redacted ? '' : part.text
    case 'tool_call': return `${part.name} ${part.arguments}`
    case 'tool_result': return typeof part.content === 'string' ? part.content : part.content.map(p => p.type === 'text' ? p.text : '').join('\n')
    case 'image': return ''
  }
}

/** Images count a flat amount: what one ~1 MP image costs on the vendors' published tables. */
const imageTokens = 1600

/** Input tokens of a canonical request, counted locally with a real BPE tokenizer. */
export async function countRequestTokens(request: CanonicalRequest): Promise<number> {
  const count = await tokenizer()
  let total = 0
  for (const message of request.messages) {
    total += perMessage
    for (const part of message.parts) total += part.type === 'image' ? imageTokens : count(partText(part))
  }
  for (const tool of request.tools ?? []) total += count(`${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.parameters ?? {})}`)
  return total
}
