import type { Reasoning, ReasoningEffort } from 'model-proxy'

type Raw = Record<string, any>

/** `output_config.effort` values of the format; each is the canonical effort of the same name. */
export const efforts: ReadonlySet<string> = new Set<ReasoningEffort>(['low', 'medium', 'high', 'xhigh', 'max'])

/**
 * `thinking` + `output_config.effort` -> canonical reasoning (the table in core/canonical/reasoning.ts):
 * an explicit budget stays a budget (with the effort beside it), adaptive thinking is the effort given or
 * `auto`, and `display: 'omitted'` means the client wants no thought text back.
 */
export function decodeMessagesReasoning(thinking: Raw | undefined, outputConfig: Raw | undefined): Reasoning | undefined {
  const effort = typeof outputConfig?.effort === 'string' && efforts.has(outputConfig.effort) ? outputConfig.effort as ReasoningEffort : undefined
  const shown = thinking?.display !== 'omitted'
  switch (thinking?.type) {
    case 'enabled': return { budgetTokens: Number(thinking.budget_tokens) || 1024, includeThoughts: shown, ...(effort && { effort }) }
    case 'disabled': return { budgetTokens: 0 }
    case 'adaptive': return { effort: effort ?? 'auto', includeThoughts: shown }
    default: return effort ? { effort } : undefined
  }
}
