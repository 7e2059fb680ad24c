export interface ListedModel { id: string; ownedBy: string }

/** OpenAI list shape (`GET /v1/models` for every client but the messages-format CLI). */
export function openaiModelList(models: ListedModel[], created: number) {
  return { object: 'list', data: models.map(model => ({ id: model.id, object: 'model', created, owned_by: model.ownedBy })) }
}

/** Messages-format list shape, for the beta family's CLI. */
export function messagesModelList(models: ListedModel[], created: number) {
  const createdAt = new Date(created * 1000).toISOString()
  const data = models.map(model => ({ type: 'model', id: model.id, display_name: model.id, created_at: createdAt }))
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }
}

/** The beta family's CLI identifies itself as `claude-cli/<version>`; it expects the messages-format list. */
export function wantsMessagesList(userAgent: string | null): boolean {
  return !!userAgent && /^claude-cli\//i.test(userAgent)
}
