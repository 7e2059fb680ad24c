import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { consola } from './logger.ts'

const require = createRequire(import.meta.url)

describe('logger', () => {
  it('is consola with its basic reporter when stdout is not a terminal, the fancy one never loaded', () => {
    expect(process.stdout.isTTY).toBeFalsy()
    expect(consola.options.reporters.map(reporter => reporter.constructor.name)).toEqual(['BasicReporter'])
    const loaded = Object.keys(require.cache).filter(path => /consola[/\\]dist[/\\]/.test(path))
    expect(loaded.some(path => /basic\.cjs$/.test(path))).toBe(true)
    expect(loaded.some(path => /index\.cjs$/.test(path))).toBe(false)
  })

  it('writes plain lines: the level and tag in brackets, no date, no icon', () => {
    const lines: string[] = []
    const logger = consola.create({ stdout: { write: (line: string) => { lines.push(line); return true } } as unknown as NodeJS.WriteStream, level: 3 }).withTag('proxy')
    logger.info('listening on http://127.0.0.1:1')
    expect(lines).toEqual(['[info] [proxy] listening on http://127.0.0.1:1\n'])
  })
})
