import type { ModelInfo } from '../../core/model-info.ts'

/** One model in the generateContent list shape (`GET /v1beta/models`), with the catalog's limits when known. */
export function alphaModelEntry(id: string, info?: ModelInfo) {
  return {
    ...(info && { inputTokenLimit: info.contextWindow, outputTokenLimit: info.maxOutput, thinking: !!info.thinking }),
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: id,
    description: `${id} through the proxy`,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  }
}
