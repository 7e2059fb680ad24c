import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sweepAtomicTempFiles } from './write.ts'

describe('sweepAtomicTempFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sweep-'))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const file = (path: string, ageMinutes: number) => {
    const full = join(dir, path)
    mkdirSync(join(full, '..'), { recursive: true })
    writeFileSync(full, 'x')
    const when = new Date(Date.now() - ageMinutes * 60_000)
    utimesSync(full, when, when)
    return full
  }

  it('removes old temp files only, down to the given depth', async () => {
    const oldTemp = file('.config.yaml.0b5c2e4e-8d1b-4a53-9f5e-2f6a1f1c7e10.tmp', 30)
    const freshTemp = file('.config.yaml.1c6d3f5f-9e2c-4b64-8a6f-3a7b2a2d8f21.tmp', 1)
    const config = file('config.yaml', 30)
    const hiddenNotTemp = file('.keep', 30)
    const nestedOld = file('usage/2026/.chunk.json.2d7e4a6a-af3d-4c75-9b70-4b8c3b3e9a32.tmp', 30)
    const tooDeep = file('a/b/c/.x.json.3e8f5b7b-b04e-4d86-8c81-5c9d4c4fab43.tmp', 30)

    expect(await sweepAtomicTempFiles(dir, 2)).toBe(2)
    expect(existsSync(oldTemp)).toBe(false)
    expect(existsSync(nestedOld)).toBe(false)
    for (const kept of [freshTemp, config, hiddenNotTemp, tooDeep]) expect(existsSync(kept)).toBe(true)
  })

  it('a missing folder is nothing to sweep', async () => {
    expect(await sweepAtomicTempFiles(join(dir, 'absent'))).toBe(0)
  })
})
