import { ProxyError, type ListedModel, type ModelListShape } from 'model-proxy'
import { compareModelIds } from 'model-proxy/kit/models'

const entry = (model: ListedModel) => ({ type: 'model', id: model.id, display_name: model.id, created_at: new Date(model.created * 1000).toISOString() })

const invalid = (message: string) => new ProxyError(400, message, 'invalid_request_error')

/** `limit`: 1-1000, 20 when absent, as the messages API takes it. */
function limitOf(query: URLSearchParams): number {
  const raw = query.get('limit')
  if (raw === null || raw === '') return 20
  const limit = Number(raw)
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid(`limit: must be an integer from 1 to 1000, got ${JSON.stringify(raw.slice(0, 40))}`)
  return limit
}

/**
 * The page a messages SDK asks for: `limit` models after `after_id` (forward, the default from the
 * start) or before `before_id` (backward), `has_more` in that direction. A cursor is placed by its id
 * among the sorted ids, not looked up: a model that left the list between two pages (its credentials
 * cooled down) moves nothing, and no model is shown twice or skipped.
 */
export function messagesModelPage(models: ListedModel[], query: URLSearchParams): { page: ListedModel[]; hasMore: boolean } {
  const limit = limitOf(query)
  const after = query.get('after_id')
  const before = query.get('before_id')
  if (after !== null && before !== null) throw invalid('after_id and before_id: give one of them, not both')
  if (before !== null) {
    const earlier = models.filter(model => compareModelIds(model.id, before) < 0)
    return { page: earlier.slice(-limit), hasMore: earlier.length > limit }
  }
  const later = after === null ? models : models.filter(model => compareModelIds(model.id, after) > 0)
  return { page: later.slice(0, limit), hasMore: later.length > limit }
}

/** `{data: [{type: 'model', id, display_name, created_at}], has_more, first_id, last_id}`, paged; and one such model. */
export const messagesModelList: ModelListShape = {
  list(models, query) {
    const { page, hasMore } = messagesModelPage(models, query)
    const data = page.map(entry)
    return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }
  },
  entry,
}
