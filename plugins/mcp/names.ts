/**
 * How the gateway names what its servers offer, so several servers share one namespace: tools and
 * prompts become `server__name`; resource URIs become `server+<uri>` (a scheme of its own, still a URI).
 * Server names hold no `_` or `+`, so the first separator always splits.
 */
export const toolSeparator = '__'

export const namespaced = (server: string, name: string) => `${server}${toolSeparator}${name}`

export function splitName(name: string): { server: string; name: string } | undefined {
  const at = name.indexOf(toolSeparator)
  if (at <= 0) return undefined
  return { server: name.slice(0, at), name: name.slice(at + toolSeparator.length) }
}

export const namespacedUri = (server: string, uri: string) => `${server}+${uri}`

export function splitUri(uri: string): { server: string; uri: string } | undefined {
  const at = uri.indexOf('+')
  if (at <= 0) return undefined
  return { server: uri.slice(0, at), uri: uri.slice(at + 1) }
}
