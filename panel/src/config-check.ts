import { parseDocument, type Document } from 'yaml'
import { ConfigError, validateConfig } from '../../core/config/validate.ts'

export interface YamlProblem { line?: number; text: string }

/**
 * What the server would refuse, found in the browser before saving: YAML syntax errors with their
 * line, then the base config schema (the very zod schema the server validates with, bundled in).
 */
export function checkYaml(text: string): YamlProblem[] {
  const doc = parseDocument(text, { prettyErrors: false })
  if (doc.errors.length) return doc.errors.map(error => ({ line: lineAt(text, error.pos[0]), text: error.message.split('\n')[0]! }))
  try {
    validateConfig(doc.toJS() ?? {})
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
