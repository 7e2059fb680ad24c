/** What the proxy knows about an upstream model: limits, and the thinking budget range it accepts. */
export interface ModelInfo {
  id: string
  contextWindow: number
  maxOutput: number
  /** Thinking budget in tokens; absent = the model takes an effort level, not a budget. */
  thinking?: { min: number; max: number; canDisable: boolean }
}

export function defineModels(models: ModelInfo[]): ModelInfo[] {
  return models
}
