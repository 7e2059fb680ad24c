import { afterAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createProxyStorage, type StorageOptions } from '../../core/storage/storage.ts'

const fsBase = mkdtempSync(join(tmpdir(), 'proxy-storage-'))
afterAll(() => rmSync(fsBase, { recursive: true, force: true }))

const drivers: Array<{ name: string; options: StorageOptions }> = [
  { name: 'memory', options: { driver: 'memory' } },
  { name: 'fs', options: { driver: 'fs', base: fsBase } },
  { name: 'redis', options: { driver: 'redis', url: 'redis://127.0.0.1:6379', base: `proxy-test-${process.pid}-${Date.now()}` } },
]

/** One state suite, every driver (unstorage's testDriver pattern). */
describe.each(drivers)('storage driver $name', ({ options }) => {
  it('stores, lists and removes JSON state', async () => {
    const storage = await createProxyStorage(options)
    try {
      await storage.setItem('state:cred-a', { state: 'cooldown', until: 123 })
      await storage.setItem('state:cred-b', { state: 'ready' })
      expect(await storage.getItem('state:cred-a')).toEqual({ state: 'cooldown', until: 123 })
      expect((await storage.getKeys('state')).sort()).toEqual(['state:cred-a', 'state:cred-b'])
      await storage.removeItem('state:cred-a')
      expect(await storage.hasItem('state:cred-a')).toBe(false)
      await storage.removeItem('state:cred-b')
      expect(await storage.getKeys('state')).toEqual([])
    } finally {
      await storage.dispose()
    }
  })
})
