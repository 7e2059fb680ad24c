import { createHash } from 'node:crypto'
import { dirname, isAbsolute, resolve } from 'node:path'
import { isMap, isScalar, parse as parseYaml, parseDocument, type Document } from 'yaml'
import type { z } from 'zod'
import type { ProxyConfig } from './schema.ts'
import { ConfigError, validateConfig } from './validate.ts'
import { expandHome, mergeLayers, readYamlData } from './yaml-layers.ts'

export const hashText = (text: string) => createHash('sha256').update(text).digest('hex')

/**
 * A YAML document that parsed into settings (or nothing yet), or a ConfigError naming the first problem.
 * A file left as text or a list (a hand edit) is refused here: an edit of it threw from the YAML library.
 */
export function parseConfigDocument(text: string): Document {
  const doc = parseDocument(text)
  if (doc.errors.length) throw new ConfigError([`config file does not parse: ${doc.errors[0]!.message.split('\n')[0]}`])
  if (doc.contents !== null && !isMap(doc.contents)) throw new ConfigError(['config file is not a mapping of settings (key: value)'])
  return doc
}

/**
 * A text with no settings at all (empty, blank, comments only, a lone `~`): on disk, a write caught half-way (an
 * editor or `>` truncates the file before writing it), never a config to run with all defaults.
 */
export function holdsNoSettings(text: string): boolean {
  const doc = parseDocument(text)
  return !doc.errors.length && (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null))
}

/** Validate a file's text as the proxy would run it: preset layers under it, relative `auth-dir` from the file's folder. */
export async function configFromText(text: string, path: string, bases: string[], schemas: readonly z.ZodType[] = []): Promise<ProxyConfig> {
  let data: unknown = {}
  for (const base of bases) data = mergeLayers(data, await readYamlData(base))
  let own: unknown
  try {
    own = parseYaml(text)
  } catch (error) {
    throw new ConfigError([`${path}: invalid YAML: ${(error as Error).message.split('\n')[0]}`])
  }
  const merged = mergeLayers(data, own)
  // Plugin schemas only check here: what they return is the raw input (loose objects), the kernel fills their defaults.
  if (schemas.length) validateConfig(merged, [...schemas])
  const config = validateConfig(merged)
  const dir = expandHome(config['auth-dir'])
  return { ...config, 'auth-dir': isAbsolute(dir) ? dir : resolve(dirname(path), dir) }
}

/** Key paths whose value differs, down to `depth` levels of maps (`routing.strategy`); values are never named. */
export function changedPaths(before: unknown, after: unknown, depth = 2, prefix = ''): string[] {
  const isMap = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)
  if (!isMap(before) || !isMap(after) || depth === 0) return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix || '(root)']
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
  return keys.flatMap(key => changedPaths(before[key], after[key], depth - 1, prefix ? `${prefix}.${key}` : key))
}
