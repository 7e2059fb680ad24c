import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { kitGroups } from '../../core/plugin-host/module-graph.ts'
import { entryExports, importedNames } from './entry-exports.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name)
  return statSync(path).isDirectory() ? walk(path) : [path]
})

/** Code of the built-in plugins and families, their tests included. */
const files = ['plugins', 'providers'].flatMap(folder => walk(join(root, folder))).filter(path => path.endsWith('.ts'))
/** Product code only (tests may import another plugin's private files to test it). */
const sources = files.filter(path => !path.endsWith('.test.ts'))

/** The package entries a plugin may import: `model-proxy` and each kit group, with the names each exports. */
const entries = new Map<string, Set<string>>([
  ['model-proxy', entryExports(join(root, 'core/index.ts'))],
  ...kitGroups.map(group => [`model-proxy/kit/${group}`, entryExports(join(root, `core/kit/${group}.ts`))] as [string, Set<string>]),
])

/** Every static import or re-export specifier of a file. */
const specifiersOf = (text: string) => [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(match => match[1]!)

/** `plugins/<name>` or `providers/<name>` of a path inside the repo. */
const ownerOf = (path: string) => relative(root, path).split('/').slice(0, 2).join('/')

describe('plugins reach core and each other only through declared entries', () => {
  it('the scanner reads import and export specifiers', () => {
    expect(specifiersOf(`import { a } from 'model-proxy'\nexport { b } from './b.ts'\nimport type {\n  c,\n} from "../x/api.ts"`)).toEqual(['model-proxy', './b.ts', '../x/api.ts'])
  })

  it('core only through model-proxy or a kit group, never by relative path (tests included)', () => {
    const problems: string[] = []
    for (const file of files) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('model-proxy') && !entries.has(specifier)) problems.push(`${relative(root, file)}: imports ${specifier} (no such entry: 'model-proxy' or 'model-proxy/kit/<group>')`)
        if (specifier.startsWith('.') && relative(root, resolve(dirname(file), specifier)).startsWith('core/')) problems.push(`${relative(root, file)}: imports ${specifier} (use 'model-proxy' or a 'model-proxy/kit/<group>')`)
      }
    }
    expect(problems).toEqual([])
  })

  it('every name imported from model-proxy or the kit is one that entry exports', () => {
    const problems: string[] = []
    for (const file of files) {
      for (const { specifier, names } of importedNames(readFileSync(file, 'utf8'))) {
        const exported = entries.get(specifier)
        if (exported) for (const name of names) if (!exported.has(name)) problems.push(`${relative(root, file)}: ${name} is not exported by ${specifier}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('the export reader sees lists, renames, types and whole re-exports', () => {
    expect(importedNames(`import { a, type b as c } from 'model-proxy'\nimport type {\n  d,\n} from 'model-proxy/kit/codec'`)).toEqual([
      { specifier: 'model-proxy', names: ['a', 'b'] }, { specifier: 'model-proxy/kit/codec', names: ['d'] },
    ])
    const publicNames = entries.get('model-proxy')!
    for (const name of ['defineProxyPlugin', 'ProxyKernel', 'CanonicalRequest', 'z']) expect(publicNames.has(name), name).toBe(true)
    expect(publicNames.has('sendUpstream')).toBe(false)
  })

  it('another plugin only through its api.ts', () => {
    const problems: string[] = []
    for (const file of sources) {
      const owner = ownerOf(file)
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue
        const target = resolve(dirname(file), specifier)
        const where = relative(root, target)
        if (/^(plugins|providers)\//.test(where) && ownerOf(target) !== owner && !where.endsWith('/api.ts')) problems.push(`${relative(root, file)}: imports ${specifier} (another plugin's private file; use its api.ts)`)
      }
    }
    expect(problems).toEqual([])
  })
})
