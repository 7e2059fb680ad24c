import { defineModels } from 'model-proxy'

/** Current models of the assistant-model service, with context, output limits and thinking ranges. */
export const betaModels = defineModels([
  { id: 'claude-opus-4-5', contextWindow: 200_000, maxOutput: 64_000, thinking: { min: 1024, max: 63_999, canDisable: true } },
  { id: 'claude-sonnet-4-5', contextWindow: 200_000, maxOutput: 64_000, thinking: { min: 1024, max: 63_999, canDisable: true } },
  { id: 'claude-haiku-4-5', contextWindow: 200_000, maxOutput: 64_000, thinking: { min: 1024, max: 63_999, canDisable: true } },
  { id: 'claude-opus-4-1', contextWindow: 200_000, maxOutput: 32_000, thinking: { min: 1024, max: 31_999, canDisable: true } },
  { id: 'claude-sonnet-4-0', contextWindow: 200_000, maxOutput: 64_000, thinking: { min: 1024, max: 63_999, canDisable: true } },
])
export const betaCatalog = betaModels.map(model => model.id)
