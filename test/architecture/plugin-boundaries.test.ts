import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name)
  return statSync(path).isDirectory() ? walk(path) : [path]
})

/** Product code of the built-in plugins and families (their tests may reach anywhere). */
const sources = ['plugins', 'providers'].flatMap(folder => walk(join(root, folder)))
  .filter(path => path.endsWith('.ts') && !path.endsWith('.test.ts'))

/** Every static import or re-export specifier of a file. */
const specifiersOf = (text: string) => [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(match => match[1]!)

/** `plugins/<name>` or `providers/<name>` of a path inside the repo. */
const ownerOf = (path: string) => relative(root, path).split('/').slice(0, 2).join('/')

describe('plugins reach core and each other only through declared entries', () => {
  it('the scanner reads import and export specifiers', () => {
    expect(specifiersOf(`import { a } from 'model-proxy'\nexport { b } from './b.ts'\nimport type {\n  c,\n} from "../x/api.ts"`)).toEqual(['model-proxy', './b.ts', '../x/api.ts'])
  })

  it('core only through model-proxy or model-proxy/internal, another plugin only through its api.ts', () => {
    const problems: string[] = []
    for (const file of sources) {
      const owner = ownerOf(file)
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue
        const target = resolve(dirname(file), specifier)
        const where = relative(root, target)
        if (where.startsWith('core/')) problems.push(`${relative(root, file)}: imports ${specifier} (use 'model-proxy' or 'model-proxy/internal')`)
        else if (/^(plugins|providers)\//.test(where) && ownerOf(target) !== owner && !where.endsWith('/api.ts')) problems.push(`${relative(root, file)}: imports ${specifier} (another plugin's private file; use its api.ts)`)
      }
    }
    expect(problems).toEqual([])
  })
})
