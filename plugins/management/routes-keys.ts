import { getQuery } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, readBody, type Guard } from './route.ts'
import { ManagementError } from './respond.ts'
import { updateConfig } from './config-store.ts'

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(item => typeof item === 'string')

/** `/api-keys`: GET, PUT (array or `{items}`), PATCH (`{index, value}` or `{old, new}`), DELETE (`?index=` or `?value=`). */
export function addApiKeyRoutes(kernel: ProxyKernel, guard: Guard): void {
  const keys = () => [...kernel.config['api-keys']]
  const save = (list: string[]) => updateConfig(kernel, doc => doc.setIn(['api-keys'], doc.createNode(list)))

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
    const list = keys()
    let at: number
    let value: string
    if (body && Number.isInteger(body.index) && typeof body.value === 'string') {
      at = body.index as number
      value = body.value
    } else if (body && typeof body.old === 'string' && typeof body.new === 'string') {
      at = list.indexOf(body.old)
      value = body.new
    } else {
      throw new ManagementError(400, 'invalid body')
    }
    if (at < 0 || at >= list.length) throw new ManagementError(404, 'item not found')
    // In place: the list's other entries keep their comments.
    await updateConfig(kernel, doc => doc.setIn(['api-keys', at], value))
    return { status: 'ok' }
  })
  addManagementRoute(kernel, guard, 'DELETE', '/api-keys', async (event) => {
    const query = getQuery(event) as { index?: string; value?: string }
    const list = keys()
    const at = query.index !== undefined ? Number(query.index) : query.value !== undefined ? list.indexOf(query.value) : Number.NaN
    if (query.index === undefined && query.value === undefined) throw new ManagementError(400, 'invalid body')
    if (!Number.isInteger(at) || at < 0 || at >= list.length) throw new ManagementError(404, 'item not found')
    await updateConfig(kernel, doc => doc.deleteIn(['api-keys', at]))
    return { status: 'ok' }
  })
}
