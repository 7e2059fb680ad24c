import type { ListedModel, ModelListShape } from 'model-proxy'

const entry = (model: ListedModel) => ({ id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy })

/** `{object: 'list', data: [{id, object: 'model', created, owned_by}]}`, and one such model. */
export const openaiModelList: ModelListShape = {
  list: models => ({ object: 'list', data: models.map(entry) }),
  entry,
}
