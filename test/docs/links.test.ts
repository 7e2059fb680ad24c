import { describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Pages other work is writing; linked as "(coming)" until they land (the lead removes this list). */
const coming = new Set<string>([])

/** Markdown text outside fenced code blocks and inline code spans, where links are live. */
function liveText(markdown: string): string {
  let fenced = false
  return markdown
    .split('\n')
    .map(line => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced
        return ''
      }
      return fenced ? '' : line.replace(/`[^`]*`/g, '')
    })
    .join('\n')
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count ? `${slug}-${count}` : slug)
  }
  return anchors
}

/** Every relative link of a markdown file that does not resolve: a missing file or a missing anchor. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const broken: string[] = []
  for (const match of liveText(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1]!
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto:
    const [path = '', anchor] = target.split('#') as [string, string | undefined]
    const resolved = path ? resolve(dirname(file), decodeURI(path)) : file
    if (!existsSync(resolved)) {
      if (!coming.has(path.split('/').pop()!)) broken.push(`${target}: no such file`)
      continue
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !headingAnchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) {
      broken.push(`${target}: no heading with anchor #${anchor} in ${relative(root, resolved)}`)
    }
  }
  return broken
}

const pages = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)]

describe('documentation links', () => {
  it.each(pages)('every relative link and anchor in %s resolves', page => {
    expect(brokenLinks(join(root, page))).toEqual([])
  })

  it('the docs index links every page in docs/', () => {
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8')
    for (const page of pages.filter(page => page.startsWith('docs/') && page !== 'docs/README.md')) {
      expect(index, page).toContain(`](${page.slice('docs/'.length)})`)
    }
  })

  it('finds a missing file and a missing anchor (the checker itself)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doc-links-'))
    try {
      writeFileSync(join(dir, 'a.md'), '# Title\n\n## Metrics (`GET /metrics`)\n\n## Same\n\n## Same\n')
      writeFileSync(
        join(dir, 'b.md'),
        [
          '[ok](a.md) [ok](a.md#title) [ok](a.md#metrics-get-metrics) [ok](a.md#same-1) [ok](https://example.com/x.md)',
          '[gone](nope.md) [bad anchor](a.md#nothing) [own](#missing) `[in code](nope2.md)`',
          '```',
          '[in a fence](nope3.md)',
          '```',
        ].join('\n'),
      )
      expect(brokenLinks(join(dir, 'b.md'))).toEqual([
        'nope.md: no such file',
        expect.stringContaining('a.md#nothing: no heading with anchor #nothing'),
        expect.stringContaining('#missing: no heading with anchor #missing'),
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
