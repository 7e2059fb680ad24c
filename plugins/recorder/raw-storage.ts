import { closeSync, openSync, unlinkSync, writevSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Driver, Storage } from 'unstorage'
import { redisOf } from 'model-proxy/kit/fleet'
import { joinParts } from './packed.ts'

/** The recorder's writes: a packed record's pieces, a summary's text; a record read back as bytes. */
export interface RawStorage {
  set(key: string, parts: Uint8Array[]): Promise<void>
  setText(key: string, text: string): Promise<void>
  get(key: string): Promise<Buffer | undefined>
  remove(key: string): Promise<void>
}

const asBuffer = (value: unknown): Buffer | undefined => {
  if (Buffer.isBuffer(value)) return value
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  if (Array.isArray(value) && value.every(part => part instanceof Uint8Array)) return joinParts(value)
  return typeof value === 'string' ? Buffer.from(value) : undefined
}

const fsBaseOf = (storage: Storage): string | undefined => {
  const driver = storage.getMount('').driver as Driver & { options?: { base?: string } }
  return driver.name === 'fs-lite' || driver.name === 'fs' ? driver.options?.base : undefined
}

/**
 * Where records go, each storage its cheapest way (a record is written per request in `all` mode, and
 * is worth less than the state the storage otherwise holds):
 * - memory: the pieces themselves, by reference: no copy beyond the streams packing joined.
 * - Redis: its unstorage driver has no raw methods (unstorage would write a Buffer as a base64 string, a
 *   third larger, an encode per record), so the bytes go to ioredis as they are, under the key the driver
 *   itself uses: listing and removing through unstorage still find them.
 * - fs: one `writev` per record into the file the driver would read, without the storage's atomic write
 *   and its fsyncs (three system calls and two flushes per record). A record cut short by a crash reads
 *   as missing.
 */
export function rawStorage(storage: Storage): RawStorage {
  const redis = redisOf(storage)
  if (redis) {
    const base = redis.base.replace(/:$/, '')
    const full = (key: string) => base ? `${base}:${key}` : key
    return {
      set: async (key, parts) => { await redis.client.set(full(key), joinParts(parts)) },
      setText: async (key, text) => { await redis.client.set(full(key), text) },
      get: async key => (await redis.client.getBuffer(full(key))) ?? undefined,
      remove: async (key) => { await redis.client.unlink(full(key)) },
    }
  }
  const fsBase = fsBaseOf(storage)
  if (fsBase) {
    const pathOf = (key: string) => join(resolve(fsBase), key.replace(/:/g, '/'))
    // The ring has two folders: each is made once, not before every write (a retry after an error makes it again).
    const made = new Set<string>()
    const folderFor = async (path: string) => {
      const folder = dirname(path)
      if (made.has(folder)) return
      await mkdir(folder, { recursive: true })
      made.add(folder)
    }
    const retried = async (path: string, write: () => Promise<void>) => {
      await folderFor(path)
      try { await write() } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        made.delete(dirname(path))
        await folderFor(path)
        await write()
      }
    }
    // Written on this thread: a record is one open, one writev and one close, each a few µs in the kernel,
    // while the same calls through the thread pool cost ~100 µs of CPU each (measured, recorder.md).
    const writeSync = (path: string, parts: readonly Uint8Array[]) => {
      const fd = openSync(path, 'w', 0o600)
      try { writevSync(fd, parts as Uint8Array[]) } finally { closeSync(fd) }
    }
    return {
      set: (key, parts) => retried(pathOf(key), async () => writeSync(pathOf(key), parts)),
      setText: (key, text) => retried(pathOf(key), async () => writeSync(pathOf(key), [Buffer.from(text)])),
      remove: async (key) => {
        try { unlinkSync(pathOf(key)) } catch (error) { if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error }
      },
      get: async key => asBuffer(await storage.getItemRaw(key)),
    }
  }
  return {
    set: (key, parts) => storage.setItemRaw(key, parts),
    setText: (key, text) => storage.setItem(key, text),
    get: async key => asBuffer(await storage.getItemRaw(key)),
    remove: key => storage.removeItem(key),
  }
}
