import type { ListedModel, ModelListShape } from 'model-proxy'

const entry = (model: ListedModel) => ({ type: 'model', id: model.id, display_name: model.id, created_at: new Date(model.created * 1000).toISOString() })

/** `{data: [{type: 'model', id, display_name, created_at}], has_more, first_id, last_id}`, and one such model. */
export const messagesModelList: ModelListShape = {
  list(models) {
    const data = models.map(entry)
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }
  },
  entry,
}
