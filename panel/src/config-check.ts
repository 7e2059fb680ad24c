import { parseDocument, type Document } from 'yaml'
import { z } from 'zod'
import { ConfigError, validateConfig } from '../../core/config/validate.ts'
import { editorEntrySchemas } from '../../core/config/schema-entries.ts'

/** What the panel knows of a family's config key (GET /v0/management/providers). */
export interface FamilyKey { 'config-key': string | null; editor?: keyof typeof editorEntrySchemas }

/** The families' list keys, checked with the entry schema of their editor kind (the server checks the rest on save). */
function familyKeySchemas(families: FamilyKey[]): z.ZodType[] {
  const shape: Record<string, z.ZodType> = {}
  for (const family of families) {
    const entry = family.editor && editorEntrySchemas[family.editor]
    if (family['config-key'] && entry) shape[family['config-key']] = z.array(entry).default([])
  }
  return Object.keys(shape).length ? [z.looseObject(shape)] : []
}

export interface YamlProblem { line?: number; text: string }

/**
 * What the server would refuse, found in the browser before saving: YAML syntax errors with their
 * line, then the base config schema (the very zod schema the server validates with, bundled in) and the
 * families' list keys.
 */
export function checkYaml(text: string, families: FamilyKey[] = []): YamlProblem[] {
  const doc = parseDocument(text, { prettyErrors: false })
  if (doc.errors.length) return doc.errors.map(error => ({ line: lineAt(text, error.pos[0]), text: error.message.split('\n')[0]! }))
  try {
    validateConfig(doc.toJS() ?? {}, familyKeySchemas(families))
    return []
  } catch (error) {
    if ((error as Error).name !== 'ConfigError') return [{ text: (error as Error).message }]
    return (error as ConfigError).issues.map(issue => ({ line: lineOfIssue(doc, text, issue), text: issue }))
  }
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length

/** `compat-provider[0].base-url: ...` -> the line of that node, or of its nearest parent in the file. */
function lineOfIssue(doc: Document, text: string, issue: string): number | undefined {
  const path = issue.split(': ')[0]!.split(/\.|\[(\d+)\]/).filter(Boolean).map(part => /^\d+$/.test(part) ? Number(part) : part)
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined
    if (node?.range) return lineAt(text, node.range[0])
  }
  return undefined
}
