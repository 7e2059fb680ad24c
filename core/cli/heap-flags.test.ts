import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { missingServerFlags, serverNodeFlags } from './heap-flags.ts'

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')

describe('server Node flags', () => {
  it.each([
    { execArgv: [], missing: ['--no-memory-reducer'] },
    { execArgv: ['--no-memory-reducer'], missing: [] },
    { execArgv: ['--max-old-space-size=512', '--no-memory-reducer'], missing: [] },
    // The operator chose to keep the reducer: not told again.
    { execArgv: ['--memory-reducer'], missing: [] },
    { execArgv: ['--inspect', '--memory-reducer-for-small-heaps'], missing: ['--no-memory-reducer'] },
  ])('$execArgv -> missing $missing', ({ execArgv, missing }) => {
    expect(missingServerFlags(execArgv)).toEqual(missing)
  })

  it('npm start and npm run dev start node with them; the bin stays portable', () => {
    // BusyBox env (Alpine) has no -S: flags in the shebang would stop the bin from starting there.
    expect(read('./bin.mjs').split('\n')[0]).toBe('#!/usr/bin/env node')
    const scripts = JSON.parse(read('../../package.json')).scripts as Record<string, string>
    for (const name of ['start', 'dev']) expect(scripts[name]).toContain(`node ${serverNodeFlags.join(' ')} ./core/cli/bin.mjs`)
  })
})
