/**
 * How a call names one entry of a list the page loaded a while ago: by its value (a key, an entry's
 * `api-key` or `name`) when that is unique in the list, so that if someone else changed the list
 * meanwhile the call still changes the entry the operator chose, not the one now at its index (the
 * server finds it at its turn). By index only for an entry that is there twice.
 */
export function entryRef(items: readonly unknown[], index: number, identity?: string): { query: string; body: Record<string, unknown> } {
  const valueOf = (item: unknown) => identity ? (item as Record<string, unknown> | undefined)?.[identity] : item
  const value = valueOf(items[index])
  const unique = typeof value === 'string' && value !== '' && items.filter(item => valueOf(item) === value).length === 1
  if (!unique) return { query: `index=${index}`, body: { index } }
  const param = identity ?? 'value'
  return { query: `${param}=${encodeURIComponent(value)}`, body: identity ? { match: value } : { old: value } }
}
