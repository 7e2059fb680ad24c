/**
 * A token count an upstream reported: a whole number from 0 to the largest safe integer, a numeric
 * string read as its number; anything else (negative, huge, text, an object) is no count. Usage decoders
 * read every field through this: a string would be concatenated into a sum, a negative one refund a budget.
 */
export function tokenCount(value: unknown): number | undefined {
  const count = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof count !== 'number' || !(count >= 0)) return undefined
  const whole = Math.round(count)
  return Number.isSafeInteger(whole) ? whole : undefined
}
