import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const pages = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)]

/** Words that only make sense to someone holding papers outside the repository. */
const outsideWords: Array<[RegExp, string]> = [
  [/\bthe spec\b|\bspec rules?\b|\bspec's\b|\(spec[:\s]/i, 'a specification the reader does not have'],
  [/interface-spec|\.\.\/shared\b|DESIGN\.md|STYLE-EXAMPLES/, 'a file outside the repository'],
  [/\bissue #?\d+/i, 'an issue number'],
  [/\brules? \d+(?:[-–.]\d+)*\b/i, 'a rule number of a specification'],
]

/** What in a page points outside the repository: web links, and relative links that leave it. */
function outsideLinks(file: string, text: string, repo: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?[^)]*\)|<((?:https?|ftp|mailto):[^>\s]+)>|^\[[^\]]+\]:\s*(\S+)/gm)) {
    const target = match[1] ?? match[2] ?? match[3]!
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) found.push(`${target}: a link outside the repository`)
    else if (!target.startsWith('#') && relative(repo, resolve(dirname(file), target.split('#')[0]!)).startsWith('..')) found.push(`${target}: leaves the repository`)
  }
  return found
}

function outsideMentions(text: string): string[] {
  const found: string[] = []
  text.split('\n').forEach((line, i) => {
    for (const [pattern, what] of outsideWords) {
      const hit = pattern.exec(line)
      if (hit) found.push(`line ${i + 1}: "${hit[0]}" (${what})`)
    }
  })
  return found
}

describe('the docs stand alone', () => {
  it.each(pages)('%s links nothing outside the repository', (page) => {
    const file = join(root, page)
    expect(outsideLinks(file, readFileSync(file, 'utf8'), root)).toEqual([])
  })

  it.each(pages)('%s cites no specification, rule or issue number', (page) => {
    expect(outsideMentions(readFileSync(join(root, page), 'utf8'))).toEqual([])
  })

  it('the checks find what they look for', () => {
    const file = join(root, 'docs/x.md')
    expect(outsideLinks(file, '[a](https://example.com) <https://x.test> [b](../../shared/y.md) [c](routing.md#x) [d](#here) ![e](panel.png)\n[ref]: http://r.test', root)).toEqual([
      'https://example.com: a link outside the repository',
      'https://x.test: a link outside the repository',
      '../../shared/y.md: leaves the repository',
      'http://r.test: a link outside the repository',
    ])
    expect(outsideMentions('as the spec says\nsee issue 22\n(rule 10, x)\nrules 1-11\nworks fine\n`../shared/DESIGN.md`')).toEqual([
      'line 1: "the spec" (a specification the reader does not have)',
      'line 2: "issue 22" (an issue number)',
      'line 3: "rule 10" (a rule number of a specification)',
      'line 4: "rules 1-11" (a rule number of a specification)',
      'line 6: "../shared" (a file outside the repository)',
    ])
  })
})
