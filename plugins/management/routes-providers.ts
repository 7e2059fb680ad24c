import { getQuery } from 'h3'
import type { Document } from 'yaml'
import type { z } from 'zod'
import type { ProxyKernel } from 'model-proxy'
import { formatIssues } from 'model-proxy/kit/config'
import { isUnsafeKey } from 'model-proxy/kit/guards'
import { addManagementRoute, readBody, type Guard } from './route.ts'
import { ManagementError } from './respond.ts'
import { updateConfig } from './config-store.ts'
import { addFamilyListRoute } from './routes-families.ts'
import { indexIn, listIn } from './doc-list.ts'
import { writeKeeping } from './write-keeping.ts'

type Entry = Record<string, unknown>

function validEntry(schema: z.ZodType, value: unknown, where: string): Entry {
  const result = schema.safeParse(value)
  if (!result.success) throw new ManagementError(400, 'invalid_config', { message: formatIssues(result.error).map(line => `${where}${line.startsWith('(root)') ? line.slice(6) : `.${line}`}`).join('; ') })
  return value as Entry
}

/**
 * A family's list: GET, PUT (the whole list), PATCH one entry (`{index, value}`, or `{match, value}` by
 * its identity field; `{name, value}` when that is `name`), DELETE one (`?<identity>=` or `?index=`).
 */
function addListRoutes(kernel: ProxyKernel, guard: Guard, key: string, schema: z.ZodType, identity: string): void {
  const raw = () => [...((kernel.config as Record<string, unknown>)[key] as Entry[] | undefined ?? [])]
  const find = (list: Entry[], value: unknown) => list.findIndex(entry => entry[identity] === value)
  // What GET shows of an entry (references resolved, defaults filled), from the file's text.
  const entriesIn = (doc: Document) => listIn(doc, key, (entry) => {
    const parsed = schema.safeParse(entry)
    return parsed.success ? parsed.data : entry
  }) as Entry[]

  addManagementRoute(kernel, guard, 'GET', `/${key}`, () => ({ [key]: raw() }))
  addManagementRoute(kernel, guard, 'PUT', `/${key}`, async (event) => {
    const body = await readBody(event) as unknown
    const list = Array.isArray(body) ? body : (body as { items?: unknown } | null)?.items
    if (!Array.isArray(list)) throw new ManagementError(400, 'invalid body')
    const entries = list.map((entry, i) => validEntry(schema, entry, `${key}[${i}]`))
    // Entries sent back as GET gave them keep their lines, comments and `${env:…}` references (write-keeping.ts).
    await updateConfig(kernel, doc => writeKeeping(doc, [key], entries, entriesIn(doc)))
    return { status: 'ok' }
  })
  addManagementRoute(kernel, guard, 'PATCH', `/${key}`, async (event) => {
    const body = await readBody(event) as { index?: unknown; match?: unknown; name?: unknown; value?: unknown } | null
    if (!body || typeof body !== 'object' || !body.value || typeof body.value !== 'object') throw new ManagementError(400, 'invalid body')
    // Fields are merged one by one into the YAML entry: none may name the prototype chain.
    const unsafe = Object.keys(body.value).find(isUnsafeKey)
    if (unsafe !== undefined) throw new ManagementError(400, 'invalid body', { message: `field ${unsafe} is not accepted` })
    const value = body.value as Entry
    // The entry is found, checked and changed at this write's turn, in the file (doc-list.ts).
    await updateConfig(kernel, (doc) => {
      const list = entriesIn(doc)
      const at = Number.isInteger(body.index) ? indexIn(list, body.index)
        : identity === 'api-key' ? find(list, body.match) : find(list, (body as Record<string, unknown>)[identity] ?? body.match)
      if (at < 0) throw new ManagementError(404, 'item not found')
      // PATCH merges into the entry field by field, so a partial value changes only what it names
      // and the entry's comments stay.
      validEntry(schema, { ...list[at], ...value }, `${key}[${at}]`)
      // A field sent with the value it has (a client sending back what GET gave, defaults included) is not
      // written, nor the parts of a field that did not change: the file changes only where the entry does.
      for (const [field, next] of Object.entries(value)) writeKeeping(doc, [key, at, field], next, list[at]![field])
    })
    return { status: 'ok' }
  })
  addManagementRoute(kernel, guard, 'DELETE', `/${key}`, async (event) => {
    const query = getQuery(event) as Record<string, unknown>
    if (query.index === undefined && query[identity] === undefined) throw new ManagementError(400, 'invalid body')
    await updateConfig(kernel, (doc) => {
      const list = entriesIn(doc)
      const at = query.index !== undefined ? indexIn(list, query.index) : find(list, query[identity])
      if (at < 0) throw new ManagementError(404, 'item not found')
      doc.deleteIn([key, at])
    })
    return { status: 'ok' }
  })
}

/** The list routes of every family's config key (ProviderDef.config), and the family listing. */
export function addProviderRoutes(kernel: ProxyKernel, guard: Guard): void {
  const keys = new Set<string>()
  for (const provider of kernel.providers.values()) {
    const config = provider.config
    if (!config?.entry || keys.has(config.key)) continue
    keys.add(config.key)
    addListRoutes(kernel, guard, config.key, config.entry, config.identity ?? 'api-key')
  }
  addFamilyListRoute(kernel, guard)
}
