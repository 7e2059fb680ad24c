import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, readBody, ManagementError } from '../management/api.ts'
import type { UsageStore } from './store.ts'
import { isUsageRecord, type UsageRecord } from './record.ts'
import { summarize } from './summarize.ts'

/** `GET /usage`, `GET /usage/export`, `POST /usage/import` (merge by record id: nothing counted twice). */
export function addUsageRoutes(kernel: ProxyKernel, store: UsageStore, since: () => number): void {
  const guard = kernel.services.managementGuard
  if (!guard) return
  const all = async () => {
    const out: UsageRecord[] = []
    for await (const record of store.records(since())) out.push(record)
    return out
  }
  addManagementRoute(kernel, guard, 'GET', '/usage', async () => {
    await store.flush()
    const partial = !kernel.fleet.health().up && { partial: 'the shared store is unavailable: this instance\'s own records only' }
    return { enabled: kernel.config['usage-statistics-enabled'], usage: summarize(await all()), ...partial }
  })
  addManagementRoute(kernel, guard, 'GET', '/usage/export', async () => {
    await store.flush()
    return { version: 1, exported_at: new Date().toISOString(), records: await all() }
  })
  addManagementRoute(kernel, guard, 'POST', '/usage/import', async (event) => {
    const body = await readBody(event) as { records?: unknown } | null
    if (!body || !Array.isArray(body.records)) throw new ManagementError(400, 'invalid body')
    await store.flush()
    const known = new Set<string>()
    for await (const record of store.records(0)) known.add(record.id)
    let added = 0
    let skipped = 0
    for (const record of body.records) {
      if (!isUsageRecord(record) || known.has(record.id)) { skipped++; continue }
      known.add(record.id)
      store.add(record)
      added++
    }
    await store.flush()
    return { status: 'ok', added, skipped }
  })
}
