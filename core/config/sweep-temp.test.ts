import { afterEach, describe, expect, it } from 'vitest'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sweepAtomicTempFiles } from './sweep-temp.ts'
import { hostTag, tempFileOwner, writeFileAtomic } from './atomic-write.ts'

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
  /** A pid that was a process of this host and is gone now. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!

  it('removes the temp files of writers that are gone, whatever their age; keeps live writers\' ones', async () => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
    try {
      const dead = file(`.config.yaml.${deadPid()}-${hostTag}-a1b2c3d4e5f6.tmp`, 0)
      const deadNested = file(`usage/2026/.chunk.json.${deadPid()}-${hostTag}-0a0b0c0d0e0f.tmp`, 0)
      const liveWriter = file(`.config.yaml.${live.pid}-${hostTag}-111111111111.tmp`, 30)
      const ours = file(`.config.yaml.${process.pid}-${hostTag}-222222222222.tmp`, 30)
      const otherHostFresh = file(`.config.yaml.${deadPid()}-0badc0de-333333333333.tmp`, 1)
      const otherHostOld = file(`.config.yaml.${deadPid()}-0badc0de-444444444444.tmp`, 30)
      const legacyOld = file('.config.yaml.0b5c2e4e-8d1b-4a53-9f5e-2f6a1f1c7e10.tmp', 30)
      const legacyFresh = file('.config.yaml.1c6d3f5f-9e2c-4b64-8a6f-3a7b2a2d8f21.tmp', 1)
      const config = file('config.yaml', 30)
      const tooDeep = file(`a/b/c/.x.json.${deadPid()}-${hostTag}-555555555555.tmp`, 30)

      expect(await sweepAtomicTempFiles(dir, 2)).toBe(4)
      for (const gone of [dead, deadNested, otherHostOld, legacyOld]) expect(existsSync(gone), gone).toBe(false)
      for (const kept of [liveWriter, ours, otherHostFresh, legacyFresh, config, tooDeep]) expect(existsSync(kept), kept).toBe(true)
    } finally {
      live.kill()
    }
  })

  it('writeFileAtomic names its temp file after its writer', async () => {
    mkdirSync(dir, { recursive: true })
    const target = join(dir, 'config.yaml')
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeFileAtomic(target, `n: ${i}\n`)))
    expect(readdirSync(dir)).toEqual(['config.yaml'])
    expect(tempFileOwner(`.config.yaml.${process.pid}-${hostTag}-abcdef012345.tmp`)).toEqual({ pid: process.pid, host: hostTag })
  })

  it('a missing folder is nothing to sweep', async () => {
    expect(await sweepAtomicTempFiles(join(dir, 'absent'))).toBe(0)
  })
})
