import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { parse as parseYaml } from 'yaml'
import type { z } from 'zod'
import type { ProxyConfig } from './schema.ts'
import { ConfigError, unknownTopLevelKeys, validateConfig } from './validate.ts'

/**
 * YAML files as the proxy reads them: a file's data, preset layers merged under it, validated. Needs no
 * plugin: whoever reads a file passes the schemas the loaded plugins add.
 */

/** Read a YAML file's data (not yet validated). */
export async function readYamlData(path: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new ConfigError([`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`])
  }
  try {
    return parseYaml(text)
  } catch (error) {
    throw new ConfigError([`${path}: invalid YAML: ${(error as Error).message.split('\n')[0]}`])
  }
}

/**
 * Deep merge for YAML layers: objects merge, anything else (lists included) is replaced by the upper
 * layer. A `__proto__` key (YAML makes it an own key) is not merged: assigning it would swap the merged
 * object's prototype, and the schema would then read its inherited keys as settings.
 */
export function mergeLayers(base: unknown, upper: unknown): unknown {
  if (!base || typeof base !== 'object' || Array.isArray(base) || !upper || typeof upper !== 'object' || Array.isArray(upper)) return upper ?? base
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(base)) if (key !== '__proto__') out[key] = value
  for (const [key, value] of Object.entries(upper)) if (key !== '__proto__') out[key] = mergeLayers(Object.hasOwn(out, key) ? out[key] : undefined, value)
  return out
}

/** Read and validate a YAML config file; every problem becomes a `path: reason` line, never a stack. */
export async function readYamlConfig(path: string, bases: string[] = [], schemas: z.ZodType[] = []): Promise<ProxyConfig> {
  let data: unknown = {}
  for (const base of bases) data = mergeLayers(data, await readYamlData(base))
  const merged = mergeLayers(data, await readYamlData(path))
  // Start-up knows every plugin's keys: a top-level key none of them has is a typo, refused with its name.
  const unknown = schemas.length ? unknownTopLevelKeys(merged, schemas) : []
  if (unknown.length) throw new ConfigError(unknown)
  return validateConfig(merged, schemas)
}

export const expandHome = (path: string) => path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path
