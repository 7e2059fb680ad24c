import { defineModels } from 'model-proxy'

/** Current models of the generative-model service, with limits and thinking budget ranges. */
export const alphaModels = defineModels([
  { id: 'gemini-3-pro-preview', contextWindow: 1_048_576, maxOutput: 65_536, thinking: { min: 128, max: 32_768, canDisable: false } },
  { id: 'gemini-2.5-pro', contextWindow: 1_048_576, maxOutput: 65_536, thinking: { min: 128, max: 32_768, canDisable: false } },
  { id: 'gemini-2.5-flash', contextWindow: 1_048_576, maxOutput: 65_536, thinking: { min: 1, max: 24_576, canDisable: true } },
  { id: 'gemini-2.5-flash-lite', contextWindow: 1_048_576, maxOutput: 65_536, thinking: { min: 512, max: 24_576, canDisable: true } },
])
export const alphaCatalog = alphaModels.map(model => model.id)
