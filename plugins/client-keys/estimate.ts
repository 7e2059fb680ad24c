/** Roughly four characters per token: a prompt's size before a tokenizer has seen it. */
const charsPerToken = 4

/** The most output a request allows, in whichever field its format names it. */
export function declaredMaxOutput(field: (key: string) => unknown): number {
  const config = field('generationConfig') as Record<string, unknown> | undefined
  for (const value of [field('max_tokens'), field('max_completion_tokens'), field('max_output_tokens'), config?.maxOutputTokens]) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value)
  }
  return 0
}

/**
 * Tokens to reserve for a request before it is sent: its prompt's size plus the output it allows (as
 * token-rate limits of hosted APIs estimate it). The answer's real usage replaces it afterwards.
 */
export function estimateTokens(bodyChars: number, body: Record<string, unknown>): number {
  return Math.ceil(bodyChars / charsPerToken) + declaredMaxOutput(key => body[key])
}

/**
 * A reservation's count, at most the largest safe integer: Redis keeps it in a member's text, which a
 * number past 1e21 would write as `1e+25` (not read back as digits), and a count past 2^53 is not exact.
 */
export const reservable = (count: number) => Math.min(count, Number.MAX_SAFE_INTEGER)
