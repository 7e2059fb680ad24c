import type { ListedModel, ModelListShape } from 'model-proxy'

/** One model as `GET /v1beta/models/{model}` answers it, with the catalog's limits when known. */
function entry({ id, info }: ListedModel) {
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

/** `{models: [...]}` (every model on one page: no `nextPageToken`), and one model. */
export const generateModelList: ModelListShape = {
  list: models => ({ models: models.map(entry) }),
  entry,
}
