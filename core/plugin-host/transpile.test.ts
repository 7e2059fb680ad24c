import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTranspiler, transform } from './transpile.mjs'

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

describe('transpile: when the worker fails or idles', () => {
  const options = { source: 'export const n: number = 1', filename: '/x/n.ts', ts: true }
  const inThread = () => (require(babelPath) as NonNullable<typeof transform>)(options).code

  it('a worker that never comes up: after the boot wait, this file and every later one in this thread', () => {
    const silent = createTranspiler({ worker: new URL('data:text/javascript,setInterval(() => {}, 1000)'), bootMs: 300 })
    const started = performance.now()
    expect(silent.transform(options).code).toBe(inThread())
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    const again = performance.now()
    expect(silent.transform(options).code).toBe(inThread())
    expect(performance.now() - again).toBeLessThan(250)
    expect(silent.running()).toBe(false)
  })

  it('a worker that fails at start: the same fallback', () => {
    const failing = createTranspiler({ worker: new URL("data:text/javascript,throw new Error('no worker today')"), bootMs: 300 })
    expect(failing.transform(options).code).toBe(inThread())
    expect(failing.running()).toBe(false)
  })

  it('a worker that is up but never answers: dropped after the wait, the file transpiled here', () => {
    const stalled = createTranspiler({ worker: new URL('data:text/javascript,import { workerData } from "node:worker_threads"; Atomics.store(workerData.signal, 1, 1); Atomics.notify(workerData.signal, 1); setInterval(() => {}, 1000)'), waitMs: 300 })
    expect(stalled.transform(options).code).toBe(inThread())
    expect(stalled.running()).toBe(false)
  })

  it('a worker that cannot load Babel says so, and this thread transpiles', () => {
    const missing = createTranspiler({ babel: '/nowhere/babel.cjs' })
    expect(() => missing.transform(options)).toThrow(/Cannot find module '\/nowhere\/babel.cjs'/)
  })

  it('the worker ends when idle and starts again for the next file', async () => {
    const idle = createTranspiler({ idleMs: 50 })
    expect(idle.transform(options).code).toBe(inThread())
    expect(idle.running()).toBe(true)
    await new Promise(resolve => setTimeout(resolve, 200))
    expect(idle.running()).toBe(false)
    expect(idle.transform(options).code).toBe(inThread())
    expect(idle.running()).toBe(true)
  })
})
