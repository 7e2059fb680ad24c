import type { CanonicalResponse, TextPart, WebSearchPart } from '../../../core/canonical/types.ts'
import { usageToGenerate } from '../../../providers/alpha/codec/usage.ts'
import { finishToGenerate } from '../../../providers/alpha/codec/map-finish-reason.ts'
import { groundingTo } from '../../../providers/alpha/codec/grounding.ts'

/**
 * A Gemini answer as the API sends it, written by hand (the proxy's encoder marks calls for its own
 * clients, which no vendor does): thought parts carry `thought: true`, a thought signature rides on
 * the text or call after the thinking (on its last thought part when none follows), a functionCall comes whole
 * in one chunk, the last chunk has finishReason, usageMetadata and groundingMetadata.
 */

type Raw = Record<string, unknown>

/** Each canonical part as the Gemini parts streamed for it (text split at `pieces`). */
function streamedParts(answer: CanonicalResponse, pieces: (text: string) => string[]): Raw[][] {
  const out: Raw[][] = []
  let pending: string | undefined
  const sign = (part: Raw): Raw => {
    if (!pending) return part
    const signed = { ...part, thoughtSignature: pending }
    pending = undefined
    return signed
  }
  for (const part of answer.parts) {
    if (part.type === 'thinking') {
      const chunks = pieces(part.text).map(text => ({ text, thought: true } as Raw))
      // Thinking after thinking: the signature stays on the thought part it closes.
      const before = out.at(-1)
      if (pending && before) before[before.length - 1] = sign(before.at(-1)!)
      pending = part.signature
      out.push(chunks)
    } else if (part.type === 'text') {
      out.push(pieces(part.text).map((text, i) => i === 0 ? sign({ text }) : { text }))
    } else if (part.type === 'tool_call') {
      out.push([sign({ functionCall: { id: part.id, name: part.name, args: JSON.parse(part.arguments) } })])
    }
  }
  // Nothing after the thinking: its signature comes on its last thought part.
  const last = out.at(-1)
  if (pending && last) last[last.length - 1] = { ...last.at(-1)!, thoughtSignature: pending }
  return out
}

const grounding = (answer: CanonicalResponse) => groundingTo(
  answer.parts.filter((part): part is WebSearchPart => part.type === 'web_search'),
  answer.parts.filter((part): part is TextPart => part.type === 'text' && !part.refusal))

function closing(answer: CanonicalResponse): { candidate: Raw; top: Raw } {
  const meta = grounding(answer)
  return {
    candidate: { finishReason: finishToGenerate(answer.finishReason), ...(meta && { groundingMetadata: meta }) },
    top: { ...(answer.usage && { usageMetadata: usageToGenerate(answer.usage) }), modelVersion: answer.model, responseId: answer.id },
  }
}

/** Pieces of one part joined back into one (a signature anywhere among them stays on it). */
function joined(pieces: Raw[]): Raw {
  const signature = pieces.map(piece => piece.thoughtSignature).filter(Boolean).at(-1)
  const whole: Raw = { ...pieces[0]!, ...(signature ? { thoughtSignature: signature } : {}) }
  if (typeof whole.text === 'string') whole.text = pieces.map(piece => piece.text).join('')
  return whole
}

/** The whole answer: the stream's pieces of each canonical part joined back into one Gemini part. */
export function geminiWhole(answer: CanonicalResponse, pieces: (text: string) => string[]): Raw {
  const parts = streamedParts(answer, pieces).map(joined)
  const { candidate, top } = closing(answer)
  return { candidates: [{ content: { role: 'model', parts }, ...candidate, index: 0 }], ...top }
}

/** The stream's SSE text: one chunk per part piece, the closing fields on the last. */
export function geminiStream(answer: CanonicalResponse, pieces: (text: string) => string[], runningUsage = false): string {
  const parts = streamedParts(answer, pieces).flat()
  const { candidate, top } = closing(answer)
  // Gemini may repeat the usage so far on every chunk: the prompt's count, the output's growing.
  const running = (i: number) => runningUsage && answer.usage ? { usageMetadata: usageToGenerate({ ...answer.usage, outputTokens: i, reasoningTokens: undefined }) } : {}
  const chunks: Raw[] = parts.map((part, i) => ({ candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }], ...running(i), modelVersion: answer.model, responseId: answer.id }))
  const end = { candidates: [{ content: { role: 'model', parts: [] as Raw[] }, ...candidate, index: 0 }], ...top }
  // Gemini puts the finish on the chunk with the last part, or sends it alone after (no parts).
  const lastPart = chunks.pop()
  if (lastPart) (end.candidates[0]!.content.parts as Raw[]).push(...(lastPart.candidates as Array<{ content: { parts: Raw[] } }>)[0]!.content.parts)
  // Or the usage comes alone on one more chunk after the finish.
  const usage = (end as Raw).usageMetadata
  const usageAlone = runningUsage && usage ? [{ candidates: [], usageMetadata: usage, modelVersion: answer.model, responseId: answer.id }] : []
  if (usageAlone.length) delete (end as Raw).usageMetadata
  return [...chunks, end, ...usageAlone].map(chunk => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('')
}
