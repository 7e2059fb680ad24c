import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import { credentialFileSchema, type CredentialFile } from './file-schema.ts'
import { formatIssues } from 'model-proxy/kit/config'

export interface FileEntry {
  name: string
  file?: CredentialFile
  /** Why the file could not be used (bad JSON, bad fields). */
  error?: string
  size: number
  modified: number
  /** The file is gone: its credential stays listed, `disabled`. */
  deleted?: boolean
}

/** A key file exactly as the cloud console downloads it (`type: service_account`) is a credential of `type`'s family. */
function fromServiceAccountKey(raw: unknown, type: string | undefined): unknown {
  const key = raw as { type?: unknown; client_email?: string; private_key?: string; project_id?: string; token_uri?: string; location?: string } | null
  if (key?.type !== 'service_account' || !type) return raw
  return {
    type, email: key.client_email, project_id: key.project_id, location: key.location,
    service_account: { client_email: key.client_email, private_key: key.private_key, project_id: key.project_id, token_uri: key.token_uri },
  }
}

export const isCredentialFileName = (name: string) => /^[\w.@+-]+\.json$/.test(name) && !name.startsWith('.')

/** Credential files in `auth-dir`, re-read on every change of the folder. */
export class CredentialFileStore {
  readonly entries = new Map<string, FileEntry>()
  private watcher?: FSWatcher
  private onChange?: () => void
  private timer?: NodeJS.Timeout

  /** `types`: the file types the registered families take, and the one that takes service-account keys. */
  constructor(readonly dir: string, private types: () => { all: string[]; serviceAccount?: string }) {}

  load(): void {
    const seen = new Set<string>()
    if (existsSync(this.dir)) {
      for (const name of readdirSync(this.dir)) {
        if (!isCredentialFileName(name)) continue
        seen.add(name)
        this.entries.set(name, this.read(name))
      }
    }
    for (const [name, entry] of this.entries) {
      if (!seen.has(name) && !entry.deleted) this.entries.set(name, { ...entry, deleted: true })
    }
  }

  private read(name: string): FileEntry {
    const path = join(this.dir, name)
    const stat = statSync(path)
    const base = { name, size: stat.size, modified: Math.floor(stat.mtimeMs / 1000) }
    let raw: unknown
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'))
    } catch (error) {
      return { ...base, error: `not valid JSON: ${(error as Error).message}` }
    }
    const types = this.types()
    const parsed = credentialFileSchema(types.all).safeParse(fromServiceAccountKey(raw, types.serviceAccount))
    return parsed.success ? { ...base, file: parsed.data } : { ...base, error: formatIssues(parsed.error).join('; ') }
  }

  /** Watch the folder; `onChange` runs (debounced) after the entries were re-read. False while the folder does not exist. */
  watch(onChange: () => void): boolean {
    this.onChange = onChange
    return this.arm()
  }

  /**
   * The folder for a file the proxy writes (an upload, a sign-in), created when missing (owner only: it
   * holds tokens) and watched from then on, as a folder present at start is.
   */
  ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    this.arm()
  }

  private arm(): boolean {
    if (this.watcher) return true
    if (!this.onChange || !existsSync(this.dir)) return false
    const onChange = this.onChange
    this.watcher = watch(this.dir, () => {
      clearTimeout(this.timer)
      this.timer = setTimeout(() => {
        try { this.load() } catch {}
        onChange()
      }, 100)
    })
    return true
  }

  close(): void {
    clearTimeout(this.timer)
    this.watcher?.close()
  }
}
