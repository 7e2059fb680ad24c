/** The panel's pages, in menu order; the URL hash names the page (`#/usage`), never any secret. */
export const pages = [
  ['dashboard', 'Dashboard'],
  ['providers', 'Providers'],
  ['models', 'Models'],
  ['chat', 'Chat'],
  ['keys', 'Client keys'],
  ['named-keys', 'Named keys'],
  ['routing', 'Routing & quota'],
  ['payload', 'Payload rules'],
  ['mcp', 'MCP servers'],
  ['files', 'Credential files'],
  ['usage', 'Usage'],
  ['requests', 'Requests'],
  ['logs', 'Logs'],
  ['config', 'Config'],
] as const

export type PageId = typeof pages[number][0]

export function pageFromHash(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '').split('/')[0]
  return (pages.find(([page]) => page === id)?.[0]) ?? 'dashboard'
}

/** What follows the page in the hash (`#/requests/<id>` -> the id), decoded; '' when nothing does. */
export function hashDetail(hash: string): string {
  const rest = hash.replace(/^#\/?/, '').split('/').slice(1).join('/')
  try { return decodeURIComponent(rest) } catch { return rest }
}
