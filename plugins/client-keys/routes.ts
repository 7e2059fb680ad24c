import type { H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, readBody, type Guard, ManagementError } from '../management/api.ts'
import type { KeyDirectory } from './directory.ts'
import type { KeyLimits } from './limits.ts'
import type { RecentRequests } from './recent.ts'
import { clientKeyEntrySchema, clientKeysOf, type ClientKeyEntry } from './schema.ts'
import { generateClientKey, hashClientKey } from './key-hash.ts'
import { keyView } from './view.ts'
import { saveEntries } from './save.ts'

/** Fields a client may set; `null` in a PATCH removes one. */
const editable = ['owner', 'models', 'rpm', 'tpm', 'budget', 'expires', 'disabled'] as const

const nameOf = (event: H3Event) => decodeURIComponent(event.context.params?.name ?? '')

function parseEntry(value: unknown): ClientKeyEntry {
  const result = clientKeyEntrySchema.safeParse(value)
  if (!result.success) throw new ManagementError(400, 'invalid body', { message: result.error.issues.map(issue => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ') })
  return result.data
}

/**
 * `/v0/management/client-keys`: list, create (the key is generated and shown in this answer only, the
 * file keeps its hash), read one with its usage and recent requests, change rules (or `rotate`), delete.
 */
export function addClientKeyRoutes(kernel: ProxyKernel, guard: Guard, parts: { directory: () => KeyDirectory; limits: KeyLimits; recent: RecentRequests }): void {
  const entries = () => clientKeysOf(kernel.config)
  const find = (name: string) => {
    const entry = entries().find(e => e.name === name)
    if (!entry) throw new ManagementError(404, 'item not found', { message: `no client key named ${JSON.stringify(name)}` })
    return entry
  }
  const view = async (entry: ClientKeyEntry) => keyView(entry, await parts.limits.usage(entry.name))

  addManagementRoute(kernel, guard, 'GET', '/client-keys', async () => ({ 'client-keys': await Promise.all(entries().map(view)) }))

  addManagementRoute(kernel, guard, 'GET', '/client-keys/:name', async (event) => {
    const entry = find(nameOf(event))
    return { ...await view(entry), recent: parts.recent.of(entry.name) }
  })

  addManagementRoute(kernel, guard, 'POST', '/client-keys', async (event) => {
    const body = await readBody(event) as Record<string, unknown> | null
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ManagementError(400, 'invalid body')
    const plain = typeof body.key === 'string' && body.key ? body.key : generateClientKey()
    const entry = parseEntry({ ...body, key: hashClientKey(plain) })
    if (entries().some(e => e.name === entry.name)) throw new ManagementError(409, 'duplicate', { message: `a client key named ${JSON.stringify(entry.name)} exists` })
    if (parts.directory().entryOf(plain) || kernel.config['api-keys'].includes(plain)) throw new ManagementError(409, 'duplicate', { message: 'this key is in use' })
    await saveEntries(kernel, { add: entry })
    return { status: 'ok', name: entry.name, key: plain, note: 'the key is shown this once: the proxy keeps only its hash' }
  })

  addManagementRoute(kernel, guard, 'PATCH', '/client-keys/:name', async (event) => {
    const current = find(nameOf(event))
    const body = await readBody(event) as Record<string, unknown> | null
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ManagementError(400, 'invalid body')
    const next: Record<string, unknown> = { ...current }
    for (const field of editable) {
      if (!(field in body)) continue
      if (body[field] === null) delete next[field]
      else next[field] = body[field]
    }
    if (typeof body.name === 'string' && body.name !== current.name) {
      if (entries().some(e => e.name === body.name)) throw new ManagementError(409, 'duplicate', { message: `a client key named ${JSON.stringify(body.name)} exists` })
      next.name = body.name
    }
    const plain = body.rotate === true ? generateClientKey() : undefined
    if (plain) next.key = hashClientKey(plain)
    const entry = parseEntry(next)
    await saveEntries(kernel, { replace: current.name, with: entry })
    return { status: 'ok', name: entry.name, ...(plain && { key: plain, note: 'the new key is shown this once; the old one no longer works' }) }
  })

  addManagementRoute(kernel, guard, 'DELETE', '/client-keys/:name', async (event) => {
    const entry = find(nameOf(event))
    await saveEntries(kernel, { remove: entry.name })
    return { status: 'ok' }
  })
}
