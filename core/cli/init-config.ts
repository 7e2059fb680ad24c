import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'

/** A random secret of `bytes` bytes, URL-safe, with a prefix that says what it is. */
export const generateSecret = (prefix: string, bytes = 24) => `${prefix}${randomBytes(bytes).toString('base64url')}`

/**
 * The config `proxy init` writes: loopback only, a generated client key and management secret (the
 * secret is hashed with bcrypt at the first start and the hash written back), and comments that say
 * how to open it up.
 */
/**
 * The upstream part of config.example.yaml (what follows its first blank line), commented out: one
 * place says what an upstream entry looks like, and core names no family.
 */
function exampleUpstreams(): string {
  try {
    const example = readFileSync(new URL('../../config.example.yaml', import.meta.url), 'utf8')
    return example.split(/\n\s*\n/).slice(1).join('\n\n').trimEnd().split('\n').map(line => `# ${line}`).join('\n')
  } catch {
    return '# (see docs/upstreams.md)'
  }
}

export function initialConfig(clientKey: string, managementSecret: string): string {
  return `# Written by \`proxy init\`. Reference: docs/configuration.md.
# Listens on loopback only. To serve other machines: set host to '' (every interface) or an address,
# put TLS in front (or set tls.*), and set remote-management.allow-remote to reach the management API.
host: 127.0.0.1
port: 8317

# Client keys: clients send one as Authorization: Bearer, x-api-key, x-goog-api-key or ?key=.
api-keys:
  - ${clientKey}

remote-management:
  allow-remote: false
  # The control panel's and management API's key (replaced by its bcrypt hash at the first start).
  secret-key: ${managementSecret}

# Where state lives: fs under ./.data by default. For several instances on one Redis:
# storage: { driver: redis, url: 'redis://redis:6379', prefix: model-proxy }
# Secrets can stay out of this file: '\${env:NAME}' or '\${file:/run/secrets/name}' in any value.

# An upstream (docs/upstreams.md has every kind); keys are best given as '\${env:UPSTREAM_KEY}':
${exampleUpstreams()}
`
}

/** The example's placeholder client key: a server must not start with it. */
export const placeholderKey = 'change-me'

/** Where a config holds the placeholder key, as `path` lines (api-keys and client-keys). */
export function placeholderKeys(config: { 'api-keys'?: unknown; 'client-keys'?: unknown }): string[] {
  const out: string[] = []
  const apiKeys = Array.isArray(config['api-keys']) ? config['api-keys'] : []
  apiKeys.forEach((key, i) => { if (key === placeholderKey) out.push(`api-keys[${i}]`) })
  const clientKeys = Array.isArray(config['client-keys']) ? config['client-keys'] : []
  clientKeys.forEach((entry, i) => { if (entry && typeof entry === 'object' && (entry as { key?: unknown }).key === placeholderKey) out.push(`client-keys[${i}].key`) })
  return out
}
