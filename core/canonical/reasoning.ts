import type { Reasoning, ReasoningEffort } from './types.ts'

/** Effort -> thinking budget in tokens. `auto` is dynamic (-1 where a format supports it). One table for every format. */
export const effortBudget: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  auto: -1,
}

/** Budget -> the nearest effort not below it (0 = none, negative = auto). */
export function budgetToEffort(budget: number): ReasoningEffort {
  if (budget < 0) return 'auto'
  if (budget === 0) return 'none'
  if (budget <= 512) return 'minimal'
  if (budget <= 1024) return 'low'
  if (budget <= 8192) return 'medium'
  if (budget <= 24576) return 'high'
  return 'xhigh'
}

/** Clamp a budget to a model's thinking range; 0 stays 0 only when the model may turn thinking off. */
export function clampBudget(budget: number, range?: { min: number; max: number; canDisable?: boolean }): number {
  if (!range || budget < 0) return budget
  if (budget === 0) return range.canDisable === false ? range.min : 0
  return Math.min(Math.max(budget, range.min), range.max)
}

/**
 * A request's reasoning fitted to a model's thinking range: the effort becomes its budget from the
 * table, clamped to [min, max]; `none` on a model that cannot turn thinking off becomes the minimum;
 * `auto` (dynamic) stays dynamic. Models without a budget range keep the reasoning as it is.
 */
export function clampReasoning(reasoning: Reasoning | undefined, range?: { min: number; max: number; canDisable?: boolean }): Reasoning | undefined {
  if (!reasoning || !range) return reasoning
  const budget = reasoning.budgetTokens ?? (reasoning.effort ? effortBudget[reasoning.effort] : undefined)
  if (budget === undefined || budget < 0) return reasoning
  const clamped = clampBudget(budget, range)
  return { ...reasoning, effort: undefined, budgetTokens: clamped }
}
