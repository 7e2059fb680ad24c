import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MainLog } from './main-log.ts'
import { formatLine, lineTime, levelOf } from './line-format.ts'
import { redact } from './redact.ts'

const dirs: string[] = []
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }) })

describe('main.log', () => {
  it('rotates numerically (main.log.1 newest) and keeps the folder under logs-max-total-size-mb', () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-log-'))
    dirs.push(dir)
    const log = new MainLog(() => dir, () => 1) // 1 MB total: files rotate at 256 KB
    const line = 'x'.repeat(1023)
    for (let i = 0; i < 2000; i++) log.write(line)
    log.flush()
    const names = readdirSync(dir).sort()
    expect(names).toContain('main.log')
    expect(names).toContain('main.log.1')
    const total = names.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0)
    expect(total).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024)
    expect(names.every(name => /^main\.log(\.\d+)?$/.test(name))).toBe(true)
  })
})

describe('main.log writes', () => {
  it('queue lines and append them once per event-loop turn, in order; a removed folder is made again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-log-'))
    dirs.push(dir)
    const log = new MainLog(() => dir, () => 0)
    for (let i = 0; i < 100; i++) log.write(`line ${i}`)
    expect(existsSync(join(dir, 'main.log'))).toBe(false)
    await new Promise(resolve => setImmediate(resolve))
    expect(readFileSync(join(dir, 'main.log'), 'utf8').split('\n').filter(Boolean)).toEqual(Array.from({ length: 100 }, (_, i) => `line ${i}`))
    rmSync(dir, { recursive: true })
    log.write('after removal')
    log.flush()
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toBe('after removal\n')
  })
})

describe('line format', () => {
  it('matches the spec and parses back', () => {
    const line = formatLine(new Date(2026, 10, 22, 9, 5, 7), 'INFO', 'hello\nworld')
    expect(line).toBe('[2026-11-22 09:05:07] INFO: hello world')
    expect(lineTime(line)).toBe(Math.floor(new Date(2026, 10, 22, 9, 5, 7).getTime() / 1000))
    expect([levelOf('info'), levelOf('success'), levelOf('warn'), levelOf('error'), levelOf('debug')]).toEqual(['INFO', 'INFO', 'WARN', 'ERROR', 'DEBUG'])
  })

  it('redacts known secrets and auth headers', () => {
    expect(redact('key sk-live-1234567890abcdef used', ['sk-live-1234567890abcdef'])).toBe('key sk-l...cdef used')
    expect(redact('authorization: Bearer abc.def', [])).toBe('authorization: Bearer [redacted]')
    expect(redact('{"x-api-key":"zzz"}', [])).toBe('{"x-api-key":"[redacted]"}')
  })
})
