/** The management key lives in sessionStorage only: gone with the tab, never in a URL or a cookie. */
const storageKey = 'model-proxy.management-key'

export function readKey(): string {
  try { return sessionStorage.getItem(storageKey) ?? '' } catch { return '' }
}

export function saveKey(key: string): void {
  try { sessionStorage.setItem(storageKey, key) } catch {}
}

export function forgetKey(): void {
  try { sessionStorage.removeItem(storageKey) } catch {}
}
