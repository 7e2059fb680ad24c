/** The management key lives in sessionStorage only: gone with the tab, never in a URL or a cookie. */
const storageKey = 'model-proxy.management-key'

export function readKey(): string {
  try { return sessionStorage.getItem(storageKey) ?? '' } catch { return '' }
}

export function saveKey(key: string): void {
  try { sessionStorage.setItem(storageKey, key) } catch {}
}

/**
 * Signing out (or a key the server stops taking) forgets every secret the panel keeps in the tab: the
 * management key and the client key typed on the Chat page, so the next person at this tab gets neither.
 */
export function forgetKey(): void {
  try {
    for (const name of Object.keys(sessionStorage)) if (name.startsWith('model-proxy.')) sessionStorage.removeItem(name)
  } catch {}
}
