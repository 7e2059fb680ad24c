import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { getQuery } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { writeFileAtomic, formatIssues } from 'model-proxy/kit/config'
import { isServedOffer } from 'model-proxy/kit/models'
import { addManagementRoute, readBody, type Guard, ManagementError } from '../management/api.ts'
import { credentialFileSchema } from './file-schema.ts'
import type { FileChannel } from './channels.ts'
import { isCredentialFileName, type CredentialFileStore } from './store.ts'

/**
 * The longest name the API takes: a file name is at most 255 bytes, and an atomic write's temp file adds
 * about 35 to it (`.<name>.<pid>-<host>-<hex>.tmp`); past that an upload failed with ENAMETOOLONG (a 500).
 * Files already in the folder are read whatever their length.
 */
const maxNameLength = 200

/** `GET|POST|DELETE /auth-files` and `GET /auth-files/models?name=`. */
export function addAuthFileRoutes(kernel: ProxyKernel, guard: Guard, store: CredentialFileStore, changed: () => void, channels: () => Map<string, FileChannel>, uploading?: (name: string, text: string) => void): void {
  const routing = () => kernel.services.routingState
  const nameOf = (value: unknown) => {
    if (typeof value !== 'string' || value.length > maxNameLength || !isCredentialFileName(value)) throw new ManagementError(400, 'invalid file name: expected <name>.json')
    return value
  }

  addManagementRoute(kernel, guard, 'GET', '/auth-files', () => ({
    files: [...store.entries.values()].sort((a, b) => a.name.localeCompare(b.name)).map(entry => ({
      name: entry.name,
      type: entry.file?.type ?? null,
      email: entry.file?.email ?? null,
      project: entry.file?.project_id ?? null,
      priority: Number.parseInt(String(entry.file?.attributes?.priority ?? '0'), 10) || 0,
      state: entry.error ? 'invalid' : routing()?.stateOf(`file:${entry.name}`) ?? 'ready',
      ...(routing()?.record(`file:${entry.name}`)?.blocked && { reason: routing()!.record(`file:${entry.name}`)!.blocked!.reason }),
      ...(entry.error && { error: entry.error }),
      size: entry.size,
      modified: entry.modified,
    })),
  }))

  addManagementRoute(kernel, guard, 'POST', '/auth-files', async (event) => {
    const name = nameOf(getQuery(event).name)
    const body = await readBody(event)
    const parsed = credentialFileSchema([...channels().keys()]).safeParse(body)
    if (!parsed.success) throw new ManagementError(400, 'invalid credential file', { message: formatIssues(parsed.error).join('; ') })
    store.ensureDir()
    const text = `${JSON.stringify(body, null, 2)}\n`
    // Told before the write: the folder's watcher may share the file before this route goes on.
    uploading?.(name, text)
    await writeFileAtomic(join(store.dir, name), text)
    store.load()
    changed()
    return { status: 'ok', name }
  })

  addManagementRoute(kernel, guard, 'DELETE', '/auth-files', (event) => {
    const query = getQuery(event) as { name?: string; all?: string }
    const names = query.all === 'true' ? [...store.entries.keys()] : [nameOf(query.name)]
    let removed = 0
    for (const name of names) {
      const path = join(store.dir, name)
      if (!existsSync(path)) continue
      rmSync(path)
      removed++
    }
    if (!removed && query.all !== 'true') throw new ManagementError(404, 'file not found')
    store.load()
    changed()
    return { status: 'ok', removed }
  })

  addManagementRoute(kernel, guard, 'GET', '/auth-files/models', (event) => {
    const name = nameOf(getQuery(event).name)
    const credential = kernel.credentials.find(c => c.id === `file:${name}`)
    if (!credential) throw new ManagementError(404, 'file not found')
    // What clients can actually ask for: exclusions (rule 6) applied, as the model index does.
    return { models: credential.models.filter(offer => isServedOffer(credential.excludedModels, offer)).map(model => ({ id: model.id, upstream: model.upstream })) }
  })
}
