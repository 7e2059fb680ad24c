import type { z } from 'zod'
import { configSchema, type ProxyConfig } from './schema.ts'
import { resolveSecretRefs } from './secret-refs.ts'

/** Start-up and management writes fail with this: one line per bad path, never a stack. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid config:\n${issues.map(line => `  - ${line}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** `['compat-provider', 0, 'base-url']` -> `compat-provider[0].base-url`. */
export function formatPath(path: PropertyKey[]): string {
  let out = ''
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`
  return out || '(root)'
}

export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map(issue => `${formatPath(issue.path)}: ${issue.message}`)
}

/** Validate raw YAML data against the base schema and every extra schema (plugins' keys, families' keys). */
export function validateConfig(raw: unknown, extra: z.ZodType[] = []): ProxyConfig {
  // `${env:NAME}` and `${file:path}` become their values before anything checks them.
  const { data: input, issues: unresolved } = resolveSecretRefs(raw ?? {})
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
