import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The product's own source files, tests left out: what a reader of the code has to take in. */
const sources = execFileSync('git', ['ls-files', 'core', 'plugins', 'providers', 'panel/src', 'playground', 'scripts'], { cwd: root, encoding: 'utf8' })
  .split('\n').filter(path => /\.(?:ts|tsx|mjs)$/.test(path) && !/\.test\.tsx?$/.test(path))
const linesOf = (path: string) => readFileSync(`${root}${path}`, 'utf8').split('\n').length - 1

describe('files stay small enough to read whole', () => {
  it('no source file passes 300 lines (split it by concept)', () => {
    expect(sources.length).toBeGreaterThan(300)
    expect(sources.filter(path => linesOf(path) > 300).map(path => `${path}: ${linesOf(path)} lines`)).toEqual([])
  })
})
