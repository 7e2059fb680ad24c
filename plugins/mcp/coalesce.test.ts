import { describe, expect, it } from 'vitest'
import { coalesced } from './coalesce.ts'

describe('coalesced', () => {
  it('runs once more for a burst of calls while it runs, per key', async () => {
    const runs: string[] = []
    let release!: () => void
    const run = coalesced(async (key: string) => {
      runs.push(key)
      if (runs.length === 1) await new Promise<void>(resolve => { release = resolve })
    })
    const first = run('tools')
    const burst = Array.from({ length: 50 }, () => run('tools'))
    const other = run('prompts')
    release()
    await Promise.all([first, ...burst, other])
    expect(runs.sort()).toEqual(['prompts', 'tools', 'tools'])
    await run('tools')
    expect(runs.filter(key => key === 'tools')).toHaveLength(3)
  })
})
