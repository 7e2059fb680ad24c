import { formatPath } from './key-path.ts'

/** `${env:NAME}` or `${file:/path}`, anywhere in a string value. */
const reference = /\$\{(env|file):([^}]+)\}/g

/** Whether a value holds a `${env:…}` or `${file:…}` reference (the file names the secret; it does not hold it). */
export const holdsSecretRef = (value: unknown): boolean => typeof value === 'string' && /\$\{(env|file):[^}]+\}/.test(value)

export interface SecretSources {
  /** Undefined in a browser (the control panel): references are then left as they are. */
  env: NodeJS.ProcessEnv | undefined
  readFile(path: string): string
}

/**
 * The process's environment and files. No static `node:fs` import: the control panel bundles the config
 * validation for the browser, where no reference is resolved (the server resolved them).
 */
const defaultSources: SecretSources = {
  get env() { return globalThis.process?.env },
  readFile: path => (globalThis.process as unknown as { getBuiltinModule(id: 'node:fs'): typeof import('node:fs') }).getBuiltinModule('node:fs').readFileSync(path, 'utf8'),
}

/**
 * Secrets stay out of the YAML: any string value may hold `${env:NAME}` (an environment variable) or
 * `${file:/run/secrets/name}` (a file's content, trailing newline trimmed), resolved when the file is
 * read. Management writes edit the file's text, so a reference written there stays a reference. Returns
 * the data with references replaced and one problem per reference that cannot be resolved.
 */
export function resolveSecretRefs(data: unknown, sources: SecretSources = defaultSources): { data: unknown; issues: string[] } {
  const issues: string[] = []
  // Most files hold none: their data passes through untouched.
  const env = sources.env
  if (!env) return { data, issues }
  const text = JSON.stringify(data) ?? ''
  if (!text.includes('${env:') && !text.includes('${file:')) return { data, issues }
  const walk = (value: unknown, path: PropertyKey[]): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('${')) return value
      return value.replace(reference, (whole, kind: string, name: string) => {
        if (kind === 'env') {
          const found = env[name]
          if (found === undefined) issues.push(`${formatPath(path)}: environment variable ${name} is not set`)
          return found ?? whole
        }
        try {
          return sources.readFile(name).replace(/\r?\n$/, '')
        } catch (error) {
          issues.push(`${formatPath(path)}: cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
          return whole
        }
      })
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, i]))
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(value)) if (key !== '__proto__') out[key] = walk(item, [...path, key])
      return out
    }
    return value
  }
  return { data: walk(data, []), issues }
}
