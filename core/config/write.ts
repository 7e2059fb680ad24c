import { open, readdir, rename, readFile, stat, unlink } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { dirname, basename, join } from 'node:path'
import { parseDocument, type Document } from 'yaml'
import type { ProxyConfig } from './schema.ts'
import { ConfigError, validateConfig } from './validate.ts'

/** Temp files of `writeFileAtomic`: `.<name>.<random>.tmp` beside the target (readers skip them). */
export const isAtomicTempFile = (name: string) => /(^|\/)\.[^/]*\.[\w-]+\.tmp$/.test(name)

/**
 * Remove temp files a killed writer left behind, in `dir` and `depth` levels below. Only those older than
 * `olderThanMs`: another instance sharing the folder may be in the middle of a write right now.
 */
export async function sweepAtomicTempFiles(dir: string, depth = 0, olderThanMs = 10 * 60_000): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  let removed = 0
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() && depth > 0) removed += await sweepAtomicTempFiles(path, depth - 1, olderThanMs)
    else if (entry.isFile() && isAtomicTempFile(entry.name)) {
      const info = await stat(path).catch(() => undefined)
      if (info && Date.now() - info.mtimeMs > olderThanMs && await unlink(path).then(() => true, () => false)) removed++
    }
  }
  return removed
}

/**
 * Write so that a reader (or a crash, SIGKILL included) sees the old file or the new one, never half of
 * one: a temp file of its own (concurrent writers never share one), fsync, rename, fsync of the folder.
 */
export async function writeFileAtomic(path: string, text: string | Uint8Array): Promise<void> {
  const dir = dirname(path)
  const temp = join(dir, `.${basename(path)}.${randomUUID()}.tmp`)
  const handle = await open(temp, 'wx', 0o600)
  try {
    await handle.writeFile(text)
    await handle.sync()
  } catch (error) {
    await handle.close()
    await unlink(temp).catch(() => {})
    throw error
  }
  await handle.close()
  try {
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => {})
    throw error
  }
  // The rename itself is durable only once the folder is flushed (power loss, not just a killed process).
  const folder = await open(dir, 'r').catch(() => undefined)
  await folder?.sync().catch(() => {})
  await folder?.close()
}

export class ConfigWriteError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigWriteError'
  }
}

/**
 * Edit the YAML file through the yaml Document API (comments and key order kept), validate the result,
 * and only then write it atomically. Returns the validated config; throws ConfigError (invalid, nothing
 * written) or ConfigWriteError (could not write).
 */
export async function editConfigFile(path: string, edit: (doc: Document) => void, extraSchemas: Parameters<typeof validateConfig>[1] = []): Promise<ProxyConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new ConfigWriteError((error as NodeJS.ErrnoException).code ?? (error as Error).message)
  }
  const doc = parseDocument(text)
  if (doc.errors.length) throw new ConfigError([`config file does not parse: ${doc.errors[0]!.message.split('\n')[0]}`])
  edit(doc)
  return writeDocument(path, doc, extraSchemas)
}

/** Validate a whole document and write it. */
export async function writeDocument(path: string, doc: Document, extraSchemas: Parameters<typeof validateConfig>[1] = []): Promise<ProxyConfig> {
  const config = validateConfig(doc.toJS() ?? {}, extraSchemas)
  try {
    await writeFileAtomic(path, doc.toString())
  } catch (error) {
    throw new ConfigWriteError((error as NodeJS.ErrnoException).code ?? (error as Error).message)
  }
  return config
}
