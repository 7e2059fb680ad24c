import type { ProxyConfig } from 'model-proxy'
import { maskSecret } from 'model-proxy/internal'

/** Every secret the config knows: client keys, provider keys, the management secret. */
export function secretsOf(config: ProxyConfig): string[] {
  const out = new Set<string>(config['api-keys'])
  for (const key of ['alpha-api-key', 'beta-api-key', 'gamma-api-key', 'delta-api-key'] as const) for (const entry of config[key]) out.add(entry['api-key'])
  for (const provider of config['compat-provider']) for (const entry of provider['api-key-entries']) if (entry['api-key']) out.add(entry['api-key'])
  if (config['remote-management']['secret-key']) out.add(config['remote-management']['secret-key'])
  if (config.partner['upstream-api-key']) out.add(config.partner['upstream-api-key'])
  for (const entry of config.partner['upstream-api-keys']) if (entry['upstream-api-key']) out.add(entry['upstream-api-key'])
  return [...out].filter(secret => secret.length >= 4).sort((a, b) => b.length - a.length)
}

/** Known secrets masked, and anything shaped like a bearer token or API key header too. */
export function redact(text: string, secrets: string[]): string {
  let out = text
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, maskSecret(secret))
  return out.replace(/(authorization|x-api-key|x-goog-api-key|x-management-key)(["']?\s*[:=]\s*["']?)(Bearer\s+)?[^\s"',}]+/gi, '$1$2$3[redacted]')
}
