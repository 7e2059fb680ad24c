import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** Names a file exports with `export { a, type B as C } from` / `export type { ... }` / declarations. */
function declaredNames(text: string): string[] {
  const names: string[] = []
  for (const match of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of match[1]!.split(',')) {
      const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()
      if (name) names.push(name)
    }
  }
  for (const match of text.matchAll(/^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:const|let|function\*?|class|interface|type|enum)\s+(\w+)/gm)) names.push(match[1]!)
  return names
}

/**
 * Every name a package entry exports, read from its text (types included, which a runtime import cannot
 * show): its own `export { } from` lists, and the declarations of files it re-exports whole (`export * from`).
 */
export function entryExports(file: string): Set<string> {
  const text = readFileSync(file, 'utf8')
  const names = new Set(declaredNames(text))
  for (const match of text.matchAll(/^export\s+(?:type\s+)?\*\s+from\s+'([^']+)'/gm)) {
    for (const name of entryExports(join(dirname(file), match[1]!))) names.add(name)
  }
  return names
}

/** The names and specifier of each static import statement of a text (`import a, { b, type c as d } from 'x'`). */
export function importedNames(text: string): Array<{ specifier: string; names: string[] }> {
  return [...text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]+)['"]/gm)].map(match => ({
    specifier: match[2]!,
    names: match[1]!.split(',').map(item => item.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean),
  }))
}
