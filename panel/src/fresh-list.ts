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

/**
 * The entry a call named is no longer on the server (another tab or operator removed or renamed it):
 * the server's 404 "item not found". Not the 404 of a management API that is off.
 */
export const isEntryGone = (error: unknown) => error instanceof ApiError && error.status === 404
  && (error.body as { error?: unknown } | undefined)?.error === 'item not found'

export class EntryGone extends ApiError {}

/**
 * A call on one entry of a list the page shows. When the entry is gone, the bare 404 would leave the
 * stale list on screen (the entry still there to click again): the list is read again and the
 * operator told the entry is gone.
 */
export async function onListedEntry<T>(what: string, reload: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!isEntryGone(error)) throw error
    await reload()
    throw new EntryGone(`${what} is gone: removed or renamed since this page read it (another tab or operator). The list is shown as it is now`, 404)
  }
}
