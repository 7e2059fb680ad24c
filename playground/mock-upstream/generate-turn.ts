import { lastUserText, mockTurn, roughTokens, toDeltas } from './reply.ts'
import { mockId } from './wire.ts'

interface Part { text?: string; thought?: boolean; functionCall?: unknown; functionResponse?: { name?: string; response?: unknown } }
export interface GenerateBody {
  contents?: Array<{ role?: string; parts?: Part[] }>
  systemInstruction?: unknown
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>
  generationConfig?: { thinkingConfig?: { includeThoughts?: boolean } }
}

type OutPart = { text: string; thought?: true } | { functionCall: { name: string; args: unknown }; thoughtSignature: string }
export interface GenerateChunk {
  candidates: Array<{ content: { role: 'model'; parts: OutPart[] }; finishReason?: 'STOP'; index: 0 }>
  usageMetadata: Record<string, number>
  modelVersion: string
  responseId: string
}

/** What a `functionResponse` part returned: its `result`/`output`/`content` string, else its JSON. */
function resultText(response: unknown): string {
  if (typeof response === 'string') return response
  const record = (response ?? {}) as Record<string, unknown>
  for (const key of ['result', 'output', 'content']) if (typeof record[key] === 'string') return record[key] as string
  return JSON.stringify(response ?? {})
}

export const promptTokens = (body: GenerateBody) => roughTokens(JSON.stringify([body.systemInstruction ?? '', body.contents ?? [], body.tools ?? []]))

/**
 * The generateContent chunks for one mock turn, as the real API streams them: an optional thought part,
 * then one chunk per word (or one functionCall chunk); the last carries `finishReason` and full usage.
 */
export function generateChunks(body: GenerateBody, model: string): GenerateChunk[] {
  const contents = body.contents ?? []
  const responses = (contents.at(-1)?.parts ?? []).filter(part => part.functionResponse)
  const toolResult = responses.length ? responses.map(part => resultText(part.functionResponse!.response)).join('\n') : undefined
  const names = (body.tools ?? []).flatMap(tool => tool.functionDeclarations ?? []).map(fn => fn.name ?? '').filter(Boolean)
  const turn = mockTurn(lastUserText(contents.map(content => ({ role: content.role ?? 'user', content: content.parts ?? [] }))), names, toolResult)
  const thinking = body.generationConfig?.thinkingConfig?.includeThoughts === true

  const parts: OutPart[][] = []
  if (thinking) parts.push([{ text: 'Thinking.', thought: true }])
  if (turn.text) for (const piece of toDeltas(turn.text)) parts.push([{ text: piece }])
  if (turn.toolCall) parts.push([{ functionCall: { name: turn.toolCall.name, args: JSON.parse(turn.toolCall.arguments) }, thoughtSignature: mockId('sig-mock-') }])

  const prompt = promptTokens(body)
  const thoughts = thinking ? roughTokens('Thinking.') : 0
  const candidates = roughTokens(turn.text ?? turn.toolCall!.arguments)
  const partial = { promptTokenCount: prompt, totalTokenCount: prompt + thoughts, ...(thinking && { thoughtsTokenCount: thoughts }) }
  const full = { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates + thoughts, ...(thinking && { thoughtsTokenCount: thoughts }) }
  const responseId = mockId('')
  return parts.map((chunkParts, i) => {
    const last = i === parts.length - 1
    return {
      candidates: [{ content: { role: 'model', parts: chunkParts }, ...(last && { finishReason: 'STOP' as const }), index: 0 }],
      usageMetadata: last ? full : partial,
      modelVersion: model,
      responseId,
    }
  })
}

/** The non-stream answer: every chunk's parts in one candidate (adjacent text parts joined), final usage. */
export function mergeChunks(chunks: GenerateChunk[]): GenerateChunk {
  const parts: OutPart[] = []
  for (const chunk of chunks) {
    for (const part of chunk.candidates[0]!.content.parts) {
      const previous = parts.at(-1)
      if ('text' in part && previous && 'text' in previous && previous.thought === part.thought) previous.text += part.text
      else parts.push({ ...part })
    }
  }
  const last = chunks.at(-1)!
  return { ...last, candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }
}
