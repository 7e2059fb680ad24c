import { readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { ConsolaInstance } from 'consola'
import type { z } from 'zod'
import type { ConfigFile } from '../config/config-file.ts'
import { unchangedSince, writeFileAtomic } from '../config/atomic-write.ts'
import { configFromText } from '../config/config-text.ts'
import { changeCount, mergeYaml } from '../config/merge.ts'
import { sharedPart, withLocalPart } from '../config/local-keys.ts'
import type { Fleet } from './fleet.ts'
import { FleetOfflineError } from './redis-fleet.ts'
import { SharedDocs } from './shared-docs.ts'
import { FileBaseStore } from './base-store.ts'
import { reconcileDoc, type LocalCopy } from './synced-doc.ts'

/** How often the fleet's version is checked besides the change messages (which a reconnect can miss). */
export const configPollMs = 1000
const name = 'config'

/**
 * Keep this instance's config file in step with the fleet's shared version in Redis: every change made
 * here (management API, an edit on disk) is committed as a new version, every version committed
 * elsewhere is written to this file (comments kept) and applied. Each instance may have its own copy
 * of the file: no shared disk is needed.
 */
export function attachConfigSync(file: ConfigFile, fleet: Fleet, options: { bases: string[]; schemas: () => readonly z.ZodType[]; logger: ConsolaInstance }): () => void {
  const docs = new SharedDocs(fleet, 'fleet:config')
  const bases = new FileBaseStore(join(dirname(file.path), `.${basename(file.path)}.fleet`))
  const { logger } = options
  const local: LocalCopy = {
    read: () => readFile(file.path, 'utf8').catch(() => undefined),
    write: async (text, expected) => { if (text !== null) await writeFileAtomic(file.path, text, { guard: () => unchangedSince(file.path, expected) }) },
    check: async (text) => { await configFromText(text, file.path, options.bases, options.schemas()) },
    merge: mergeYaml,
    distance: changeCount,
    deletable: false,
    // host, port, tls, auth-dir, logs-dir stay each instance's own.
    toShared: sharedPart,
    toLocal: withLocalPart,
    async replaced(text) {
      const aside = `${file.path}.before-fleet`
      await writeFileAtomic(aside, text)
      logger.warn(`${file.path} differed from the fleet's config and had never been in step with it: replaced by the fleet's version (the old file is kept as ${aside})`)
    },
  }
  let lastInvalid: string | undefined
  file.sync = {
    async reconcile(madeOn) {
      const health = fleet.health()
      if (!health.up) throw new FleetOfflineError(health.reason ?? 'down')
      const outcome = await reconcileDoc(docs, name, local, bases, madeOn === undefined ? undefined : { on: madeOn })
      if (outcome.kind === 'invalid-local') {
        if (lastInvalid !== outcome.error.message) logger.warn(`${file.path} is not shared with the fleet while it is invalid: ${outcome.error.message.replace(/\n/g, ' ')}`)
        lastInvalid = outcome.error.message
        return undefined
      }
      lastInvalid = undefined
      if (outcome.kind === 'pushed' || outcome.kind === 'merged') logger.info(`config version ${outcome.version.stamp.split(':')[1]} shared with the fleet${outcome.kind === 'merged' ? ' (merged with a concurrent change)' : ''}`)
      if (outcome.kind === 'pulled' || outcome.kind === 'replaced' || outcome.kind === 'merged') return `fleet version ${outcome.version.stamp.split(':')[1]} from ${outcome.version.origin}`
      return undefined
    },
  }

  const reload = () => { file.reload('fleet').catch(error => logger.warn(`config sync: ${(error as Error).message}`)) }
  const unwatch = docs.watch(changed => { if (changed === name) reload() })
  const offUp = fleet.onUp(reload)
  const poll = setInterval(() => {
    if (!fleet.health().up) return
    docs.stamps().then((stamps) => {
      if ((stamps.get(name) ?? '') !== (bases.get(name)?.stamp ?? '')) reload()
    }, () => {})
  }, configPollMs)
  poll.unref()
  return () => {
    clearInterval(poll)
    unwatch()
    offUp()
    file.sync = undefined
  }
}
