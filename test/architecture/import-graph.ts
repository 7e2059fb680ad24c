import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The import graph of a folder, as the module loader sees it: static imports and re-exports (also
 * `import type`, which the typechecker follows), side-effect imports, and `import()` with a literal path.
 * Specifiers of the package's own entries resolve to their files.
 */

const codeFile = /\.(?:ts|mts|mjs|js)$/

const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name)
  return statSync(path).isDirectory() ? walk(path) : [path]
})

const patterns = [
  /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s+['"]([^'"]+)['"]/gm,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
]

/** Every module specifier a source text names, in order of the patterns above. */
export const specifiersOf = (text: string): string[] => patterns.flatMap(pattern => [...text.matchAll(pattern)].map(match => match[1]!))

/** Files of `dir` (repo-relative) and the files inside `dir` each imports. */
export function importGraph(root: string, dir: string, entries: Record<string, string> = {}): Map<string, string[]> {
  const files = walk(join(root, dir)).filter(file => codeFile.test(file))
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = new Set<string>()
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      const target = specifier.startsWith('.') ? resolve(dirname(file), specifier) : entries[specifier] && join(root, entries[specifier])
      if (target && existsSync(target) && codeFile.test(target) && !relative(join(root, dir), target).startsWith('..')) targets.add(relative(root, target))
    }
    graph.set(relative(root, file), [...targets].sort())
  }
  return graph
}

/** Strongly connected components with more than one module, or one importing itself (Tarjan). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.sort())
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return cycles
}

/** One path around a component, to name the cycle in a failure: a -> b -> ... -> a. */
export function cyclePath(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component)
  const start = component[0]!
  // Breadth-first from the start back to itself, inside the component.
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length) {
    const node = queue.shift()!
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue
      if (next === start) {
        const path = [start]
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at)
        return [...path, start]
      }
      if (!previous.has(next)) {
        previous.set(next, node)
        queue.push(next)
      }
    }
  }
  return component
}
