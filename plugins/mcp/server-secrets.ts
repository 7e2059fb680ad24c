import { isSecretHeader, maskValues } from 'model-proxy/kit/access'
import { isStdio, type McpServerConfig } from './schema.ts'

/**
 * Path segments and query values of 16+ characters of a server's URL: some hosted servers are addressed
 * by a URL holding their key (listings show only the origin), and a server may quote its URL in an error.
 */
function urlTokens(value: string): string[] {
  let url: URL
  try { url = new URL(value) } catch { return [] }
  const decode = (part: string) => { try { return decodeURIComponent(part) } catch { return part } }
  return [...url.pathname.split('/').map(decode), ...url.searchParams.values()].filter(part => part.length >= 16)
}

/**
 * What a server holds that nobody may see: its token, OAuth client secret and current access token, the
 * values of its secret-named headers, the long parts of its URL, and its environment values (those under
 * 8 characters are taken for settings, not secrets: masking `warn` everywhere would garble every message).
 */
export function serverSecrets(config: McpServerConfig, accessToken: string | undefined): string[] {
  const long = (values: Record<string, string> | undefined) => Object.values(values ?? {}).filter(value => value.length >= 8)
  const named = (headers: Record<string, string> | undefined) => Object.entries(headers ?? {}).filter(([name]) => isSecretHeader(name)).map(([, value]) => value)
  const held = isStdio(config) ? long(config.env) : [config['bearer-token'], config.oauth?.['client-secret'], accessToken, ...named(config.headers), ...urlTokens(config.url)]
  return held.filter((value): value is string => !!value)
}

/** `result` with `secrets` masked in every string it holds. */
export function maskedResult<T>(result: T, secrets: string[]): T {
  if (!secrets.length) return result
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return maskValues(node, secrets)
    if (Array.isArray(node)) return node.map(walk)
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]))
    return node
  }
  return walk(result) as T
}

/** Listed items (tools, prompts, resources) with `secrets` masked in all but their identifier: a changed name could not be called. */
export function maskedItems<T extends object>(items: T[], id: 'name' | 'uri' | 'uriTemplate', secrets: string[]): T[] {
  if (!secrets.length) return items
  return items.map(item => ({ ...maskedResult(item, secrets), [id]: (item as Record<string, unknown>)[id] }))
}
