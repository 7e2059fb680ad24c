import { describe, expect, it } from 'vitest'
import { fileURLToPath } from 'node:url'
import { cyclePath, importCycles, importGraph, specifiersOf } from './import-graph.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The package's own names count as imports of their files: core importing `model-proxy` closes a loop too. */
const entries = { 'model-proxy': 'core/index.ts', 'model-proxy/internal': 'core/internal.ts' }

const graphOf = (edges: Record<string, string[]>) => new Map(Object.entries(edges))

describe('core imports form no cycle', () => {
  it('the scanner reads static, type-only, side-effect and literal dynamic imports', () => {
    const text = `import { a } from './a.ts'\nimport type {\n  B,\n} from "../b.ts"\nexport * from './c.ts'\nimport './d.ts'\nconst e = await import('./e.ts')\nconst f = await import(path)`
    expect(specifiersOf(text).sort()).toEqual(['../b.ts', './a.ts', './c.ts', './d.ts', './e.ts'])
  })

  it('the cycle finder names every strongly connected group and a path around it', () => {
    const graph = graphOf({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['e'], f: ['a'] })
    expect(importCycles(graph)).toEqual([['a', 'b', 'c'], ['e']])
    expect(cyclePath(graph, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'a'])
    expect(importCycles(graphOf({ a: ['b'], b: [] }))).toEqual([])
  })

  it('no module of core/ reaches itself through its imports', () => {
    const graph = importGraph(root, 'core', entries)
    expect(graph.size).toBeGreaterThan(100)
    const cycles = importCycles(graph).map(component => `${component.length} modules: ${cyclePath(graph, component).join(' -> ')}`)
    expect(cycles).toEqual([])
  })
})
