import { countTokens } from 'gpt-tokenizer'
import { countingPieces } from './count-pieces.ts'

/** Tokens of each text (gpt-tokenizer, o200k_base), counted piece by piece: linear in the text. */
export function countTexts(texts: string[]): number[] {
  return texts.map((text) => {
    let total = 0
    for (const piece of countingPieces(text)) total += countTokens(piece)
    return total
  })
}
