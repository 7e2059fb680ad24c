import { readFile, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProxyKernel } from 'model-proxy'
import { unchangedSince, writeFileAtomic, serializeFileTask, hashText, changeCount, mergeJson } from 'model-proxy/kit/config'
import { SharedDocs, FileBaseStore, reconcileDoc, type LocalCopy, type SyncOutcome } from 'model-proxy/kit/fleet'
import { isCredentialFileName, type CredentialFileStore } from './store.ts'

/** How often the fleet's versions are compared besides the change messages. */
export const authPollMs = 2000

export interface CredentialFileSync {
  /** Bring one file in step (before a refresh: maybe another instance refreshed it already; after: share it now). */
  reconcile(name: string): Promise<SyncOutcome | undefined>
  /** Files whose content changed here (upload, sign-in, refresh, an edit on disk): share them. */
  localChanged(): Promise<void>
  /**
   * An upload is about to write `text` as the whole file: once found there, it is shared as the newest
   * version, also when it equals one replaced seconds ago (an upload put back), never taken for an
   * editor's late save over that version.
   */
  uploading(name: string, text: string): void
  close(): void
}

/**
 * Credential files shared through Redis when instances have no shared disk: each file is a versioned
 * document; a change on any instance reaches every instance's auth-dir; a deleted file is deleted
 * everywhere; conflicting changes to one file merge field by field (the newer write wins a field).
 */
export function syncCredentialFiles(kernel: ProxyKernel, store: CredentialFileStore, changed: () => void): CredentialFileSync | undefined {
  const { fleet, logger } = kernel
  if (!fleet.shared) return undefined
  const docs = new SharedDocs(fleet, 'fleet:auth')
  store.ensureDir()
  const bases = new FileBaseStore(join(store.dir, '.fleet-synced.json'))
  const copy = (name: string): LocalCopy => {
    const path = join(store.dir, name)
    const read = () => readFile(path, 'utf8').catch(() => undefined)
    return {
      read,
      write: async (text, expected) => {
        if (text !== null) return writeFileAtomic(path, text, { guard: () => unchangedSince(path, expected) })
        unchangedSince(path, expected)
        await unlink(path).catch(() => {})
      },
      check: (text) => { JSON.parse(text) },
      merge: mergeJson,
      distance: changeCount,
      deletable: true,
      replaced: text => writeFileAtomic(join(store.dir, `.${name}.before-fleet`), text),
    }
  }
  // Uploads not yet shared, by file name: the text written and until when it is looked for.
  const uploads = new Map<string, { text: string; until: number }>()
  const reconcile = (name: string): Promise<SyncOutcome | undefined> => {
    if (!isCredentialFileName(name) || !fleet.health().up) return Promise.resolve(undefined)
    return serializeFileTask(join(store.dir, name), async () => {
      // Looked for until shared, or for ten seconds at most (a write that failed is never found).
      let upload = uploads.get(name)
      if (upload && upload.until < Date.now()) {
        uploads.delete(name)
        upload = undefined
      }
      const local = copy(name)
      const outcome = await reconcileDoc(docs, name, { ...local, read: async () => {
        const text = await local.read()
        if (upload && text === upload.text) uploads.delete(name)
        return text
      } }, bases, upload && { whole: upload.text })
      if (outcome.kind === 'pulled' || outcome.kind === 'merged' || outcome.kind === 'replaced') {
        store.load()
        changed()
        logger.info(`credential file ${name}: ${outcome.version.text === null ? 'deleted' : 'version'} from ${outcome.version.origin}`)
      }
      if (outcome.kind === 'invalid-local') kernel.warnLimited('auth-sync', `credential file ${name} is not shared while it is not valid JSON`)
      return outcome
    }).catch((error) => {
      kernel.warnLimited('auth-sync', `credential file ${name}: not in step with the fleet: ${(error as Error).message}`)
      return undefined
    })
  }
  const localNames = () => [...store.entries.values()].filter(entry => !entry.deleted).map(entry => entry.name)
  // A file is read and hashed again only when its size or time moved.
  const seen = new Map<string, string>()
  const localChanged = async () => {
    for (const name of store.entries.keys()) {
      const info = await stat(join(store.dir, name)).catch(() => undefined)
      const signature = info ? `${info.size}:${info.mtimeMs}` : 'missing'
      if (bases.get(name) && seen.get(name) === signature) continue
      const text = info ? await readFile(join(store.dir, name), 'utf8').catch(() => null) : null
      const inStep = (now = bases.get(name)) => !!now && (text === null ? now.text === null : hashText(text) === now.hash)
      if (!inStep()) await reconcile(name)
      if (inStep()) seen.set(name, signature)
      else seen.delete(name)
    }
  }
  const all = async () => {
    if (!fleet.health().up) return
    const stamps = await docs.stamps().catch(() => undefined)
    if (!stamps) return
    for (const name of new Set([...stamps.keys(), ...localNames()])) {
      if (stamps.get(name) !== bases.get(name)?.stamp || !bases.get(name)) await reconcile(name)
    }
    await localChanged()
  }

  const unwatch = docs.watch(name => { void reconcile(name) })
  const offUp = fleet.onUp(() => { void all() })
  const poll = setInterval(() => { void all() }, authPollMs)
  poll.unref()
  void all()
  return {
    reconcile,
    localChanged,
    uploading: (name, text) => { uploads.set(name, { text, until: Date.now() + 10_000 }) },
    close() {
      clearInterval(poll)
      unwatch()
      offUp()
    },
  }
}
