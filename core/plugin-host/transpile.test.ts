import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { transform } from './transpile.mjs'

const require = createRequire(import.meta.url)
const babelPath = join(dirname(require.resolve('jiti')), '../dist/babel.cjs')
const loaded = () => Object.keys(require.cache).includes(babelPath)
const source = "import type { A } from './a.ts'\nexport const f = (x: number): A => ({ x } as A)\nexport default class C { constructor(private readonly y = 1) {} }\n"

describe('transpile: jiti transform in a worker thread', () => {
  it('gives the code jiti would transpile in this thread, and Babel never loads here', () => {
    expect(transform).toBeTypeOf('function')
    const options = { source, filename: '/x/file.ts', ts: true, async: true, interopDefault: false, babel: {} }
    const before = loaded()
    const out = transform!(options)
    expect(loaded()).toBe(before)
    expect(out.error).toBeUndefined()
    expect(out.code).toBe((require(babelPath) as NonNullable<typeof transform>)(options).code)
    expect(out.code).not.toContain('number')
  })

  it('answers each file in turn and reports a syntax error as jiti would', () => {
    const good = transform!({ source: 'export const a: string = "1"', filename: '/x/a.ts', ts: true })
    const bad = transform!({ source: 'export const = ;', filename: '/x/b.ts', ts: true })
    expect(good.code).toContain('"1"')
    expect(bad.error).toBeTruthy()
    expect(transform!({ source: 'export const c = 3 as number', filename: '/x/c.ts', ts: true }).code).toContain('3')
  })
})
