import { readFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import type { Document } from 'yaml'
import type { z } from 'zod'
import type { ConsolaInstance } from 'consola'
import type { ProxyConfig } from './schema.ts'
import { FileChangedError, unchangedSince, writeFileAtomic } from './atomic-write.ts'
import { serializeFileTask } from './write-queue.ts'
import { changedPaths, configFromText, hashText, holdsNoSettings, parseConfigDocument } from './config-text.ts'
import { ConfigError } from './validate.ts'
import { configText, keepUntouchedLines } from './keep-lines.ts'

export class ConfigWriteError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigWriteError'
  }
}

/** A write made on a version of the file that is not the one on disk any more (`ifMatch`, the hash of the text the writer read). */
export class ConfigConflictError extends Error {
  constructor(message = 'the config file changed since it was read: read it again and redo the change') {
    super(message)
    this.name = 'ConfigConflictError'
  }
}

/** Keeps the file in step with other instances (core/fleet/config-sync.ts). */
export interface ConfigFileSync {
  /**
   * Pull, push or merge; resolves to a description of a change it brought in (for the log), if any.
   * `madeOn`: the file's text a write of this process was made on (the local change is made on it, never
   * an editor's late save over an older version).
   */
  reconcile(madeOn?: string): Promise<string | undefined>
}

export interface ConfigFileOptions {
  path: string
  /** YAML layers under the file (presets), lowest first. */
  bases: string[]
  /** Plugin-owned keys, checked before anything is written. */
  schemas: () => readonly z.ZodType[]
  current: () => ProxyConfig
  apply: (config: ProxyConfig) => Promise<void>
  logger: ConsolaInstance
}

export interface ConfigChange { config: ProxyConfig; changed: string[] }

const segments = (path: string) => path.split('.')
const overlaps = (a: string, b: string) => {
  const [x, y] = [segments(a), segments(b)]
  return x.slice(0, y.length).join('.') === y.slice(0, x.length).join('.')
}

/**
 * The changed paths of the running config that the file's text changed too. Early at start-up the
 * running config lacks the defaults of plugins not set up yet, which are no change of the file's.
 */
export function changedInFile(changed: string[], before: string | undefined, after: string): string[] {
  if (before === undefined) return changed
  let inText: string[]
  try {
    inText = changedPaths(parseConfigDocument(before).toJS() ?? {}, parseConfigDocument(after).toJS() ?? {})
  } catch {
    return changed
  }
  return changed.filter(path => inText.some(raw => overlaps(path, raw)))
}

/**
 * The config file: every change to it, from any source, goes through here. Writes are queued per file
 * (read-modify-write under the queue: no concurrent write is lost), validated before anything is
 * written, durable (fsync + rename + folder fsync) before they resolve, and applied once: a text whose
 * hash was applied already (our own write seen again by the watcher) is not applied again.
 */
export class ConfigFile {
  sync?: ConfigFileSync
  private appliedHash?: string
  private rejectedHash?: string
  /** The text last applied: what the log line of the next change compares with. */
  private appliedText?: string

  constructor(private options: ConfigFileOptions) {
    try {
      this.appliedText = readFileSync(options.path, 'utf8')
      this.appliedHash = hashText(this.appliedText)
    } catch {}
  }

  get path(): string { return this.options.path }

  /**
   * Edit the YAML document (comments and key order kept), validate, write, share, apply. Lines the edit
   * did not change are written as they were, byte for byte (core/config/keep-lines.ts).
   */
  edit(edit: (doc: Document) => void | Promise<void>, origin: string): Promise<ConfigChange> {
    return this.write(async (text) => {
      // Made on a file caught empty, the edit would be the whole config: every other setting gone.
      if (holdsNoSettings(text) && this.appliedText !== undefined && !holdsNoSettings(this.appliedText)) {
        throw new ConfigError(['config file holds no settings, unlike the running config (emptied, or a write not finished): restore it or send it whole (PUT /config.yaml)'])
      }
      const doc = parseConfigDocument(text)
      await edit(doc)
      return keepUntouchedLines(text, configText(doc))
    }, origin, true)
  }

  /**
   * Replace the whole document (PUT /config.yaml); `source`: the text it was parsed from, whose lines are
   * kept where the document did not change them. `ifMatch`: the hash (`hashText`) of the text the writer
   * based it on; when the file holds another text at this write's turn, nothing is written
   * (ConfigConflictError): a whole file written from a stale read would undo every change made since.
   */
  replace(doc: Document, origin: string, source?: string, ifMatch?: string): Promise<ConfigChange> {
    return this.write((text) => {
      if (ifMatch !== undefined && hashText(text) !== ifMatch) throw new ConfigConflictError()
      return source === undefined ? configText(doc) : keepUntouchedLines(source, configText(doc))
    }, origin, ifMatch !== undefined)
  }

  /**
   * Read-modify-write under the file's queue, after bringing the file up to the fleet's newest version.
   * Someone else (an editor, a deploy tool) writing the file between our read and our write is not
   * overwritten: the change is made again on what they wrote. `onText`: the change is made on the text
   * it is given (an edit, a replace checked against it), so the fleet takes it as made on its version.
   */
  private write(change: (text: string) => string | Promise<string>, origin: string, onText: boolean): Promise<ConfigChange> {
    return serializeFileTask(this.path, async () => {
      await this.reconcile()
      let madeOn: string
      for (let attempt = 0; ; attempt++) {
        madeOn = await this.read()
        try {
          await this.writeChecked(madeOn, await change(madeOn))
          break
        } catch (error) {
          if (!(error instanceof FileChangedError) || attempt >= 4) throw error
        }
      }
      await this.reconcile(onText ? madeOn! : undefined)
      return this.applyText(await this.read(), origin)
    })
  }

  /**
   * The file may have changed (the watcher, or another instance announced a version): bring it in
   * step and apply it if its content is new. An invalid file is logged once and not applied.
   */
  reload(origin: 'disk' | 'fleet'): Promise<ConfigChange | undefined> {
    return serializeFileTask(this.path, async () => {
      const before = await readFile(this.path, 'utf8').catch(() => undefined)
      // A file deleted to be recreated: wait for it. An unchanged file needs no round trip to the fleet.
      if (before === undefined || (origin === 'disk' && hashText(before) === this.appliedHash)) return undefined
      const pulled = await this.reconcile()
      const text = await readFile(this.path, 'utf8').catch(() => undefined)
      if (text === undefined) return undefined
      const hash = hashText(text)
      if (hash === this.appliedHash || hash === this.rejectedHash) return undefined
      if (holdsNoSettings(text)) {
        // Applied, it dropped every key, provider and the management secret until the rest was written.
        this.rejectedHash = hash
        this.options.logger.warn(`${this.path}: the file holds no settings (a write not finished?); the running config stays`)
        return undefined
      }
      try {
        return await this.applyText(text, pulled ?? (origin === 'disk' ? 'the file on disk' : 'the fleet'))
      } catch (error) {
        this.rejectedHash = hash
        if (error instanceof ConfigError) {
          this.options.logger.error(`${this.path}: ${(error as Error).message.replace(/\n/g, ' ')}; the running config stays`)
          return undefined
        }
        throw error
      }
    })
  }

  private async read(): Promise<string> {
    try {
      return await readFile(this.path, 'utf8')
    } catch (error) {
      throw new ConfigWriteError((error as NodeJS.ErrnoException).code ?? (error as Error).message)
    }
  }

  private async writeChecked(before: string, text: string): Promise<void> {
    await configFromText(text, this.path, this.options.bases, this.options.schemas())
    if (text === before) return
    try {
      await writeFileAtomic(this.path, text, { guard: () => unchangedSince(this.path, before) })
    } catch (error) {
      if (error instanceof FileChangedError) throw error
      throw new ConfigWriteError((error as NodeJS.ErrnoException).code ?? (error as Error).message)
    }
  }

  /** The fleet is optional: while it cannot be reached the file stays as it is and is shared later. */
  private async reconcile(madeOn?: string): Promise<string | undefined> {
    if (!this.sync) return undefined
    try {
      return await this.sync.reconcile(madeOn)
    } catch (error) {
      if ((error as Error).name !== 'FleetOfflineError') this.options.logger.warn(`config sync: ${(error as Error).message}`)
      return undefined
    }
  }

  private async applyText(text: string, origin: string): Promise<ConfigChange> {
    const hash = hashText(text)
    if (hash === this.appliedHash) return { config: this.options.current(), changed: [] }
    const next = await configFromText(text, this.path, this.options.bases, this.options.schemas())
    const previous = this.options.current()
    await this.options.apply(next)
    const before = this.appliedText
    this.appliedHash = hash
    this.appliedText = text
    this.rejectedHash = undefined
    const config = this.options.current()
    const changed = changedInFile(changedPaths(previous, config), before, text)
    this.options.logger.info(`config changed by ${origin}: ${changed.length ? changed.join(', ') : 'comments or layout only'}`)
    return { config, changed }
  }
}
