import { describe, expect, it } from 'vitest'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { codeMap, hooksOf, mapFiles, moduleSummary, withMap } from '../../scripts/code-map.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

describe('the code map (CONTRIBUTING.md, docs/architecture.md)', () => {
  it.each(mapFiles)('$path lists every folder, plugin, family and hook of the tree, and nothing else', ({ path, hooksLink }) => {
    const { text, problems } = codeMap(root)
    expect(problems, 'the tree has parts the map cannot describe').toEqual([])
    const current = readFileSync(join(root, path), 'utf8')
    // Stale: run `npm run code-map` and commit.
    expect(withMap(current, text, hooksLink), `${path}: the code map is stale, run npm run code-map`).toBe(current)
  })

  it('a new plugin, a removed one and a new hook change the map; a plugin without a doc comment is a problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-map-'))
    try {
      for (const part of ['core', 'plugins', 'providers', 'panel', 'playground', 'examples', 'test', 'docs', 'scripts', 'deploy', '.gitignore']) cpSync(join(root, part), join(dir, part), { recursive: true, filter: source => !source.includes('node_modules') && !source.includes('/dist') })
      const before = codeMap(dir)
      expect(before.problems).toEqual([])
      mkdirSync(join(dir, 'plugins/zeta'))
      writeFileSync(join(dir, 'plugins/zeta/index.ts'), '/** Zeta: does one new thing. */\nexport default defineProxyPlugin({})\n')
      rmSync(join(dir, 'plugins/keepalive'), { recursive: true })
      const hooks = readFileSync(join(dir, 'core/kernel/hooks.ts'), 'utf8').replace("  'close': () => void | Promise<void>\n}", "  'close': () => void | Promise<void>\n  /** A new moment. */\n  'zeta-moment': () => void\n}")
      writeFileSync(join(dir, 'core/kernel/hooks.ts'), hooks)
      const after = codeMap(dir)
      expect(after.text).toContain('| `plugins/zeta/` | Zeta: does one new thing. |')
      expect(after.text).not.toContain('plugins/keepalive/')
      expect(after.text).toContain('| `zeta-moment` | deciding | A new moment. |')
      mkdirSync(join(dir, 'plugins/bare'))
      writeFileSync(join(dir, 'plugins/bare/index.ts'), 'export default {}\n')
      mkdirSync(join(dir, 'core/newpart'))
      expect(codeMap(dir).problems).toEqual([
        'core/newpart/ has no role: add it to folderRoles in scripts/code-map.ts',
        'plugins/bare/index.ts has no doc comment saying what it is',
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it.each([
    ['/** One. Two. */\nexport default x', 'One.'],
    ['/** Helper. */\nconst a = 1\n/**\n * The plugin: `a.b` stays.\n */\nexport default x', 'The plugin: `a.b` stays.'],
    ['/** A | B */\nexport default x', 'A \\| B'],
    ['const a = 1\n', undefined],
  ])('moduleSummary(%j) = %j', (source, expected) => {
    expect(moduleSummary(source)).toBe(expected)
  })

  it('reads every hook of ProxyHooks with its comment', () => {
    expect(hooksOf("export interface ProxyHooks {\n  /** First. */\n  'a-b': () => void\n  'c': () => void\n}")).toEqual([{ name: 'a-b', doc: 'First.' }, { name: 'c', doc: undefined }])
  })
})
