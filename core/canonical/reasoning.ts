import type { Reasoning, ReasoningEffort } from './types.ts'

/**
 * The one effort table. Each canonical effort, per family knob:
 *
 * | effort  | thinking budget (messages `budget_tokens`, generateContent `thinkingBudget`) | chat `reasoning_effort`, responses `reasoning.effort` |
 * |---------|-------------------------|----------------|
 * | none    | 0 (messages: `thinking: {type: 'disabled'}`) | `none`  |
 * | minimal | 512 (messages: 1024, its floor) | `minimal` |
 * | low     | 1024                    | `low`          |
 * | medium  | 8192                    | `medium`       |
 * | high    | 24576                   | `high`         |
 * | xhigh   | 32768                   | `xhigh`        |
 * | max     | 32768                   | `max`          |
 * | auto    | -1 dynamic (messages: 8192) | not sent: the model's default |
 *
 * A messages client's `output_config.effort` (`low`..`max`) is the effort of the same name; adaptive
 * thinking without one is `auto`. Budgets are clamped to the upstream model's range when its catalog
 * entry has one (`clampReasoning`).
 */
export const effortBudget: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  max: 32768,
  auto: -1,
}

/** Values the chat and responses APIs accept for their effort knob; `auto` is not one of them. */
export type OpenAIEffort = Exclude<ReasoningEffort, 'auto'>

/** Canonical reasoning -> the chat/responses effort knob; undefined = leave it unset (the model's default). */
export function openaiEffort(reasoning: Reasoning | undefined): OpenAIEffort | undefined {
  if (!reasoning) return undefined
  const effort = reasoning.effort ?? (reasoning.budgetTokens === undefined ? undefined : budgetToEffort(reasoning.budgetTokens))
  return effort === 'auto' ? undefined : effort
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
