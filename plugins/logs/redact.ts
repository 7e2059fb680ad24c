import type { ProxyConfig } from 'model-proxy'
import { maskValues, secretsPattern } from 'model-proxy/kit/access'

/** Config keys whose string values (or lists of strings) are secrets, whoever owns the key: `api-key(s)`, `upstream-api-key`, `secret-key`, `client-secret`. */
const secretKey = /(^|-)(api-keys?|secret(-key)?)$/

/**
 * Every secret the config knows, found by key name anywhere in it: client keys, every family's provider
 * keys (core, built-in or third-party: their entries name them `api-key`), the management secret, the
 * partner keys.
 */
export function secretsOf(config: ProxyConfig): string[] {
  const out = new Set<string>()
  const walk = (node: unknown, secret: boolean, depth: number) => {
    if (depth > 8) return
    if (typeof node === 'string') { if (secret) out.add(node); return }
    if (Array.isArray(node)) { for (const item of node) walk(item, secret, depth + 1); return }
    if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(value, secretKey.test(key), depth + 1)
  }
  walk(config, false, 0)
  return [...out].filter(secret => secret.length >= 4).sort((a, b) => b.length - a.length)
}

/**
 * Known secrets masked, and anything shaped like a bearer token or API key header too. A line is first
 * tested against one pattern of every form: ~0.15 µs a line with 50 keys, where searching each form
 * (17 a key) cost ~9 µs, on every line main.log writes.
 */
export function redact(text: string, secrets: string[]): string {
  return (secretsPattern(secrets).test(text) ? maskValues(text, secrets) : text).replace(/(authorization|x-api-key|x-goog-api-key|x-management-key)(["']?\s*[:=]\s*["']?)(Bearer\s+)?[^\s"',}]+/gi, '$1$2$3[redacted]')
}
