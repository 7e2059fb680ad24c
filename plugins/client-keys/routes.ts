import type { H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, readBody, type Guard, ManagementError } from '../management/api.ts'
import type { KeyDirectory } from './directory.ts'
import type { KeyLimits } from './limits.ts'
import type { RecentRequests } from './recent.ts'
import { clientKeyEntrySchema, clientKeysOf, type ClientKeyEntry } from './schema.ts'
import { generateClientKey, hashClientKey, isKeyHash, storedHash } from './key-hash.ts'
import { keyView } from './view.ts'
import { saveEntries } from './save.ts'

/** Fields a client may set; `null` in a PATCH removes one. */
const editable = ['owner', 'models', 'rpm', 'tpm', 'budget', 'expires', 'disabled'] as const

/** Every field a PATCH may carry: a misspelt one (`rpn`) or `key` must not be answered "ok" and ignored. */
const patchable = new Set<string>([...editable, 'name', 'rotate'])

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const unaddressable = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * Why a name the API is sent cannot be the name of a key: one with a lone surrogate has no UTF-8 form, so
 * no URL could name the key afterwards (read, change, remove); a control character is no name either.
 * The file may hold any name (a config accepted once stays accepted): only the API refuses these.
 */
export function nameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined
  if (unaddressable.test(name)) return 'name: must be printable text (no control characters or unpaired surrogates): the key is addressed by it in /client-keys/{name}'
  return undefined
}

/** Why a PATCH body cannot be applied as sent (an unknown field, `name` or `rotate` of the wrong type), or undefined. */
export function patchProblem(body: Record<string, unknown>): string | undefined {
  const unknown = Object.keys(body).filter(field => !patchable.has(field))
  if (unknown.length) return `unknown field(s) ${unknown.map(field => JSON.stringify(field)).join(', ')}: a PATCH may change ${[...patchable].join(', ')} (the key itself changes with rotate: true)`
  if ('name' in body && typeof body.name !== 'string') return 'name: must be a string'
  const badName = nameProblem(body.name)
  if (badName) return badName
  if ('rotate' in body && typeof body.rotate !== 'boolean') return 'rotate: must be true or false'
  return undefined
}

/**
 * The key a POST names, as the plain key to answer (undefined: the client sent its hash, and knows the
 * key) and the hash to store. Absent: a new key is generated. Anything but a non-empty string is the
 * client's mistake, never a reason to generate one silently.
 */
export function postedKey(key: unknown): { plain?: string; hash: string } {
  if (key === undefined) {
    const plain = generateClientKey()
    return { plain, hash: hashClientKey(plain) }
  }
  if (typeof key !== 'string' || !key) throw new ManagementError(400, 'invalid body', { message: 'key: must be a non-empty string (the key, or its sha256:<64 hex> hash); leave it out to have one generated' })
  return isKeyHash(key) ? { hash: key } : { plain: key, hash: hashClientKey(key) }
}

/** The entry a PATCH body makes of `current` (unchecked): `null` removes a field, `name` renames, `plain` is a rotated key. */
export function patched(current: ClientKeyEntry, body: Record<string, unknown>, plain?: string): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current }
  for (const field of editable) {
    if (!(field in body)) continue
    if (body[field] === null) delete next[field]
    else next[field] = body[field]
  }
  if (typeof body.name === 'string') next.name = body.name
  if (plain) next.key = hashClientKey(plain)
  return next
}

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
  /**
   * The entry a PATCH wrote, as the fleet's merge left it (found by its key: another instance may have
   * renamed it meanwhile, and the edit followed it). A rename onto a name another instance took at the
   * same moment, committed first, was not made (nor the rest of the change, a rotation too: the key is
   * then found under its old name with its old key): 409; the key deleted meanwhile: 404.
   */
  const afterMerge = (written: ClientKeyEntry, name: string) => {
    const stored = entries().find(e => storedHash(e.key) === storedHash(written.key))
    const renameLost = written.name !== name && (stored ? stored.name === name : entries().some(e => e.name === name))
    if (renameLost) throw new ManagementError(409, 'duplicate', { message: `a client key named ${JSON.stringify(written.name)} exists` })
    if (!stored) throw new ManagementError(404, 'item not found', { message: `no client key named ${JSON.stringify(name)}` })
    return stored
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
    const badName = nameProblem(body.name)
    if (badName) throw new ManagementError(400, 'invalid body', { message: badName })
    const { plain, hash } = postedKey(body.key)
    const entry = parseEntry({ ...body, key: hash })
    // Compared by hash: a key sent as its hash is found too. Named keys are checked when the entry is written.
    if (kernel.config['api-keys'].some(key => hashClientKey(key) === hash)) throw new ManagementError(409, 'duplicate', { message: 'this key is in use' })
    await saveEntries(kernel, { add: entry })
    // Another instance may have added a key of this name, or this key under another name, at the same
    // moment and committed first: its entry stays (the fleet's merge), so this one is not there to answer for.
    const stored = entries().find(e => e.name === entry.name)
    if (!stored || storedHash(stored.key) !== storedHash(hash)) throw new ManagementError(409, 'duplicate', { message: stored ? `a client key named ${JSON.stringify(entry.name)} exists` : 'this key is in use' })
    if (!plain) return { status: 'ok', name: entry.name }
    return { status: 'ok', name: entry.name, key: plain, note: 'the key is shown this once: the proxy keeps only its hash' }
  })

  addManagementRoute(kernel, guard, 'PATCH', '/client-keys/:name', async (event) => {
    const name = find(nameOf(event)).name
    const body = await readBody(event) as Record<string, unknown> | null
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ManagementError(400, 'invalid body')
    const problem = patchProblem(body)
    if (problem) throw new ManagementError(400, 'invalid body', { message: problem })
    const plain = body.rotate === true ? generateClientKey() : undefined
    // Made on the entry as written when the change takes its turn: a concurrent PATCH is never overwritten.
    const written = (await saveEntries(kernel, { edit: name, with: current => parseEntry(patched(current, body, plain)) }))!
    const entry = afterMerge(written, name)
    return { status: 'ok', name: entry.name, ...(plain && { key: plain, note: 'the new key is shown this once; the old one no longer works' }) }
  })

  addManagementRoute(kernel, guard, 'DELETE', '/client-keys/:name', async (event) => {
    const entry = find(nameOf(event))
    await saveEntries(kernel, { remove: entry.name })
    return { status: 'ok' }
  })
}
