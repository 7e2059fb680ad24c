import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createProxyStorage } from 'model-proxy/kit/fleet'
import { rawStorage } from './raw-storage.ts'
import { unpackRecord } from './packed.ts'

const dir = mkdtempSync(join(tmpdir(), 'recorder-raw-'))
const base = `recorder-raw-test-${process.pid}-${Date.now()}`
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  const redis = await createProxyStorage({ driver: 'redis', base })
  await redis.clear()
  await redis.dispose()
})

// One suite, every storage the recorder writes to: what `rawStorage` writes, unstorage lists, reads and removes.
describe.each([
  ['memory', () => createProxyStorage({ driver: 'memory' })],
  ['fs', () => createProxyStorage({ driver: 'fs', base: dir })],
  ['redis', () => createProxyStorage({ driver: 'redis', base })],
] as const)('rawStorage on %s', (_name, create) => {
  it('writes a record from its pieces and reads it back byte for byte; a summary as JSON unstorage reads', async () => {
    const storage = await create()
    const raw = rawStorage(storage)
    const parts = [Buffer.from('MPR1'), new Uint8Array([0, 1, 2, 255]), Buffer.from('é and more')]
    await raw.set('recorder:record:r-1', parts)
    await raw.setText('recorder:index:000000000000001-r-1', JSON.stringify({ id: 'r-1', status: 200 }))
    expect(await raw.get('recorder:record:r-1')).toEqual(Buffer.concat(parts))
    expect(await raw.get('recorder:record:missing')).toBeUndefined()
    expect(await storage.getItem('recorder:index:000000000000001-r-1')).toEqual({ id: 'r-1', status: 200 })
    expect((await storage.getKeys('recorder')).sort()).toEqual(['recorder:index:000000000000001-r-1', 'recorder:record:r-1'])
    await raw.remove('recorder:record:r-1')
    await raw.remove('recorder:index:000000000000001-r-1')
    await raw.remove('recorder:record:never-written')
    expect(await storage.getKeys('recorder')).toEqual([])
    await storage.dispose()
  })
})

describe('rawStorage on fs', () => {
  it('makes its folder again when it was removed under it, and a record cut short reads as missing', async () => {
    const storage = await createProxyStorage({ driver: 'fs', base: dir })
    const raw = rawStorage(storage)
    await raw.set('recorder:record:a', [Buffer.from('x')])
    rmSync(join(dir, 'recorder'), { recursive: true, force: true })
    await raw.set('recorder:record:b', [Buffer.from('y')])
    expect(await raw.get('recorder:record:b')).toEqual(Buffer.from('y'))
    writeFileSync(join(dir, 'recorder/record/torn'), Buffer.concat([Buffer.from('MPR1'), Buffer.from([0, 0, 1, 0]), Buffer.from('{"blo')]))
    expect(unpackRecord((await raw.get('recorder:record:torn'))!)).toBeUndefined()
    await storage.dispose()
  })
})
