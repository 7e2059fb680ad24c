import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { kitGroups } from '../../core/plugin-host/module-graph.ts'
import { entryExports } from './entry-exports.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const groups = [...kitGroups].sort()
const read = (path: string) => readFileSync(join(root, path), 'utf8')

describe('the kit (model-proxy/kit/<group>)', () => {
  it('its files, the loader\'s list and the package exports agree', () => {
    expect(readdirSync(join(root, 'core/kit')).filter(name => name.endsWith('.ts')).map(name => name.slice(0, -3)).sort()).toEqual(groups)
    expect(JSON.parse(read('package.json')).exports).toEqual({ '.': './core/index.ts', './kit/*': './core/kit/*.ts' })
  })

  it.each(groups)('%s: a thin file of documented re-exports under a header naming the group', (group) => {
    const text = read(`core/kit/${group}.ts`)
    expect(text.startsWith(`/**\n * \`model-proxy/kit/${group}\`: `), 'the header names the entry').toBe(true)
    // Only comments and `export ... from` lines: the kit adds no code of its own, so moving core's files
    // only rewrites these paths.
    const body = text.slice(text.indexOf('*/') + 2).split('\n').filter(line => line.trim() !== '')
    let documented = false
    for (const line of body) {
      if (line.startsWith('/** ') && line.endsWith(' */')) documented = true
      else if (/^export (type )?\{ [^}]+ \} from '\.\.\/[\w/.-]+\.ts'$/.test(line)) expect(documented, `${group}: ${line} has no one-line doc above it`).toBe(true)
      else expect.fail(`${group}: not a one-line doc or a re-export: ${line}`)
    }
  })

  it('each name has one home: one group, or the public entry', () => {
    const homes = new Map<string, string>()
    for (const name of entryExports(join(root, 'core/index.ts'))) homes.set(name, 'model-proxy')
    const twice: string[] = []
    for (const group of groups) {
      for (const name of entryExports(join(root, `core/kit/${group}.ts`))) {
        if (homes.has(name)) twice.push(`${name}: ${homes.get(name)} and ${group}`)
        homes.set(name, group)
      }
    }
    expect(twice).toEqual([])
  })

  it('the docs name every group and no other (provider-families.md, plugins.md)', () => {
    const docs = read('docs/provider-families.md') + read('docs/plugins.md')
    const named = new Set([...docs.matchAll(/model-proxy\/kit\/([a-z-]+)/g)].map(match => match[1]!))
    expect([...named].sort()).toEqual(groups)
    expect(docs).not.toContain('model-proxy/internal')
  })
})
