import { getQuery } from 'h3'
import type { Document } from 'yaml'
import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, readBody, type Guard } from './route.ts'
import { ManagementError } from './respond.ts'
import { updateConfig } from './config-store.ts'
import { indexIn, listIn } from './doc-list.ts'
import { writeKeeping } from './write-keeping.ts'

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(item => typeof item === 'string')
const keysIn = (doc: Document) => listIn(doc, 'api-keys') as string[]
const notFound = () => new ManagementError(404, 'item not found')

/** `/api-keys`: GET, PUT (array or `{items}`), PATCH (`{index, value}` or `{old, new}`), DELETE (`?index=` or `?value=`). */
export function addApiKeyRoutes(kernel: ProxyKernel, guard: Guard): void {
  const keys = () => [...kernel.config['api-keys']]
  const save = (list: string[]) => updateConfig(kernel, doc => writeKeeping(doc, ['api-keys'], list, keysIn(doc)))

  addManagementRoute(kernel, guard, 'GET', '/api-keys', () => ({ 'api-keys': keys() }))
  addManagementRoute(kernel, guard, 'PUT', '/api-keys', async (event) => {
    const body = await readBody(event) as unknown
    const list = isStringList(body) ? body : isStringList((body as { items?: unknown } | null)?.items) ? (body as { items: string[] }).items : undefined
    if (!list) throw new ManagementError(400, 'invalid body')
    await save(list)
    return { status: 'ok' }
  })
  addManagementRoute(kernel, guard, 'PATCH', '/api-keys', async (event) => {
    const body = await readBody(event) as { index?: unknown; value?: unknown; old?: unknown; new?: unknown } | null
    const byIndex = !!body && Number.isInteger(body.index) && typeof body.value === 'string'
    if (!body || (!byIndex && (typeof body.old !== 'string' || typeof body.new !== 'string'))) throw new ManagementError(400, 'invalid body')
    // The entry is found at this write's turn, in the file (doc-list.ts); in place: the others keep their comments.
    await updateConfig(kernel, (doc) => {
      const list = keysIn(doc)
      const at = byIndex ? indexIn(list, body.index) : list.indexOf(body.old as string)
      if (at < 0) throw notFound()
      writeKeeping(doc, ['api-keys', at], byIndex ? body.value : body.new, list[at])
    })
    return { status: 'ok' }
  })
  addManagementRoute(kernel, guard, 'DELETE', '/api-keys', async (event) => {
    const query = getQuery(event) as { index?: unknown; value?: unknown }
    if (query.index === undefined && query.value === undefined) throw new ManagementError(400, 'invalid body')
    await updateConfig(kernel, (doc) => {
      const list = keysIn(doc)
      const at = query.index !== undefined ? indexIn(list, query.index) : list.indexOf(query.value as string)
      if (at < 0) throw notFound()
      doc.deleteIn(['api-keys', at])
    })
    return { status: 'ok' }
  })
}
