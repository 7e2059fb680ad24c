import { defineModels } from 'model-proxy'

/** Current models of the code-model service (reasoning by effort level, no budget). */
export const gammaModels = defineModels([
  { id: 'gpt-5.1-codex', contextWindow: 400_000, maxOutput: 128_000 },
  { id: 'gpt-5.1-codex-mini', contextWindow: 400_000, maxOutput: 128_000 },
  { id: 'gpt-5.1', contextWindow: 400_000, maxOutput: 128_000 },
  { id: 'gpt-5-codex', contextWindow: 400_000, maxOutput: 128_000 },
  { id: 'gpt-5', contextWindow: 400_000, maxOutput: 128_000 },
])
export const gammaCatalog = gammaModels.map(model => model.id)
