import { ApiError, get } from './api.ts'

/**
 * Lists the API only takes whole (`PUT /api-keys`, a provider list: there is no append call) are
 * saved from the copy the page read a while ago. Sent as is, that copy would undo every change made
 * since, from another tab or operator: a key they added gone, a key they removed back. So the list is
 * read again just before the PUT and the save refused when it differs; the page then shows the fresh
 * list and the operator redoes the change on it.
 */
export class ListChanged extends ApiError {}

export async function unchangedSince(path: string, seen: readonly unknown[]): Promise<void> {
  const body = await get<Record<string, unknown>>(path)
  const now = body?.[path.slice(1)] ?? []
  if (JSON.stringify(now) === JSON.stringify(seen)) return
  throw new ListChanged(`not saved: ${path.slice(1)} changed since this page read it (another tab or operator). The list is shown as it is now: check it and save again`, 409)
}
