import type { z } from 'zod'
import { configSchema, type ProxyConfig } from './schema.ts'
import { resolveSecretRefs } from './secret-refs.ts'
import { formatPath } from './key-path.ts'

/** Start-up and management writes fail with this: one line per bad path, never a stack. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid config:\n${issues.map(line => `  - ${line}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map(issue => `${formatPath(issue.path)}: ${issue.message}`)
}

/** The top-level keys a schema names (undefined: it does not say, so any key may be its). */
const namedKeys = (schema: z.ZodType): string[] | undefined => {
  const shape = (schema as { shape?: Record<string, unknown> }).shape
  return shape && typeof shape === 'object' ? Object.keys(shape) : undefined
}

/**
 * Top-level keys no schema knows (`:::` reads as the key `::`, a misspelt `routng:` as itself). Only
 * against the whole set of schemas (every plugin loaded: start-up, a management write), each saying
 * which keys it reads: plugins register theirs one by one while the proxy starts.
 */
export function unknownTopLevelKeys(input: unknown, extra: readonly z.ZodType[]): string[] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return []
  const known = new Set(namedKeys(configSchema))
  for (const schema of extra) {
    const keys = namedKeys(schema)
    if (!keys) return []
    for (const key of keys) known.add(key)
  }
  return Object.keys(input).filter(key => !known.has(key)).map(key => `${formatPath([key])}: unknown key (no setting of this proxy or its plugins has this name)`)
}

/**
 * Validate raw YAML data against the base schema and every extra schema (plugins' keys, families' keys).
 * The document must be a mapping: a list, a scalar or text is refused, never read as "all defaults".
 */
export function validateConfig(raw: unknown, extra: z.ZodType[] = []): ProxyConfig {
  const document = raw ?? {}
  if (typeof document !== 'object' || Array.isArray(document)) throw new ConfigError([`(root): must be a mapping of settings (key: value), got ${Array.isArray(document) ? 'a list' : `a ${typeof document}`}`])
  // `${env:NAME}` and `${file:path}` become their values before anything checks them.
  const { data: input, issues: unresolved } = resolveSecretRefs(document)
  const result = configSchema.safeParse(input)
  const issues = [...unresolved, ...(result.success ? [] : formatIssues(result.error))]
  let config = result.success ? result.data : undefined
  for (const schema of extra) {
    // On the base-validated config when there is one, so a loose schema returns parsed values, not raw ones.
    const part = schema.safeParse(config ?? input)
    if (!part.success) issues.push(...formatIssues(part.error))
    else if (config) config = { ...config, ...(part.data as object) }
  }
  if (issues.length || !config) throw new ConfigError(issues)
  // Typed with every plugin's keys (ProxyConfig): the kernel validates a plugin's keys with its schema
  // (filling defaults) before that plugin's setup runs, so no plugin reads its keys missing.
  return config as ProxyConfig
}
