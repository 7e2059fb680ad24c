import { type Reasoning, type ReasoningEffort, RequestValidationError } from 'model-proxy'
import { openaiEffort } from 'model-proxy/kit/codec'
import { absent, isObject, type Json } from './guards.ts'

const summaries: ReadonlySet<string> = new Set(['auto', 'concise', 'detailed', 'none'])
const efforts: ReadonlySet<string> = new Set<ReasoningEffort>(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'auto'])

/**
 * `reasoning: {effort, summary}` -> canonical. Summaries are how this format shows thoughts, so
 * `includeThoughts` is whether one was asked for. The rest (the exact summary style) stays in `wire`.
 */
export function decodeReasoning(value: unknown): { reasoning?: Reasoning; wire?: Json; dropped?: string[] } {
  if (absent(value)) return {}
  if (!isObject(value)) throw new RequestValidationError('reasoning must be an object', 'reasoning')
  const { effort, ...rest } = value
  if (!absent(effort) && !(typeof effort === 'string' && efforts.has(effort))) {
    throw new RequestValidationError('reasoning.effort must be one of none, minimal, low, medium, high, xhigh, max', 'reasoning.effort')
  }
  const summary = rest.summary ?? rest.generate_summary
  // What other formats cannot ask for: a key beside effort and summary, a summary style they have no word for.
  const dropped = Object.keys(rest).filter(key => key !== 'summary' && key !== 'generate_summary').map(key => `reasoning.${key}`)
  if (!absent(summary) && !summaries.has(summary as string)) dropped.push('reasoning.summary')
  const reasoning: Reasoning = { includeThoughts: typeof summary === 'string' && summary !== 'none' }
  if (typeof effort === 'string') reasoning.effort = effort as ReasoningEffort
  return { reasoning, ...(Object.keys(rest).length && { wire: rest }), ...(dropped.length && { dropped }) }
}

export function encodeReasoning(reasoning: Reasoning | undefined, wire: unknown): Json | undefined {
  const out: Json = isObject(wire) ? { ...wire } : {}
  if (!reasoning) return Object.keys(out).length ? out : undefined
  // The format has no dynamic level: `auto` leaves the choice to the model's default.
  const effort = openaiEffort(reasoning)
  if (effort) out.effort = effort
  if (reasoning.includeThoughts === false || effort === 'none') {
    delete out.summary
    delete out.generate_summary
  } else if (out.summary === undefined && out.generate_summary === undefined) out.summary = 'auto'
  return Object.keys(out).length ? out : undefined
}
