import { getRouterParam, type H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { jsonDeeperThan } from 'model-proxy/kit/guards'
import { addManagementRoute, readBody, type Guard, ManagementError, reply, updateConfig } from '../management/api.ts'
import pkg from '../../package.json' with { type: 'json' }
import { parseFilter } from './filter.ts'
import { toFixture } from './fixture.ts'
import { replayOptions, replayRequest, sendReplay } from './replay.ts'
import { summaryOf } from './build.ts'
import { recorderConfigOf, recorderModes, type RecorderMode } from './schema.ts'
import type { RecordStore } from './store.ts'

const pageSize = { default: 50, max: 500 }

async function recordOf(store: RecordStore, event: H3Event) {
  const id = decodeURIComponent(getRouterParam(event, 'id') ?? '')
  const record = await store.get(id)
  if (!record) throw new ManagementError(404, 'not found', { message: `no recorded request ${JSON.stringify(id)} (it may have left the ring)` })
  return record
}

/** An optional JSON body (a replay's `{model?, credential?}`). */
async function optionalBody(event: H3Event): Promise<unknown> {
  const text = await event.req.text()
  if (!text.trim()) return undefined
  if (jsonDeeperThan(text)) throw new ManagementError(400, 'invalid body')
  try {
    return JSON.parse(text)
  } catch {
    throw new ManagementError(400, 'invalid body')
  }
}

/**
 * `GET /requests` (filters, newest first, paged), `GET /requests/{id}` (every hop), `POST
 * /requests/{id}/replay` and `GET /requests/{id}/fixture` under `/v0/management`.
 */
export function addRecorderRoutes(kernel: ProxyKernel, guard: Guard, store: RecordStore): void {
  addManagementRoute(kernel, guard, 'GET', '/requests', async (event) => {
    const query = event.url.searchParams
    const parsed = parseFilter(query)
    if ('error' in parsed) throw new ManagementError(400, 'invalid query', { message: parsed.error })
    const limit = query.has('limit') ? Number(query.get('limit')) : pageSize.default
    if (!Number.isInteger(limit) || limit < 1 || limit > pageSize.max) throw new ManagementError(400, 'invalid query', { message: `limit must be an integer from 1 to ${pageSize.max}` })
    const page = await store.list(parsed.filter, limit, query.get('cursor') ?? undefined)
    return { mode: recorderConfigOf(kernel.config).mode, ...page }
  })

  addManagementRoute(kernel, guard, 'GET', '/requests/:id', event => recordOf(store, event))

  // `PUT /recorder/mode {value}`: the Requests page's "turn on" button; written to the YAML like any setting.
  addManagementRoute(kernel, guard, 'PUT', '/recorder/mode', async (event) => {
    const value = (await readBody(event) as { value?: unknown } | null)?.value
    if (!recorderModes.includes(value as RecorderMode)) throw new ManagementError(400, 'invalid value', { message: `value must be one of ${recorderModes.join(', ')}` })
    await updateConfig(kernel, doc => doc.setIn(['recorder', 'mode'], value))
    return { status: 'ok', mode: value }
  })

  addManagementRoute(kernel, guard, 'POST', '/requests/:id/replay', async (event) => {
    const options = replayOptions(await optionalBody(event))
    const record = await recordOf(store, event)
    if (recorderConfigOf(kernel.config).mode === 'off') throw new ManagementError(409, 'recorder is off', { message: 'replays are recorded: set recorder.mode to errors, sampled or all' })
    const id = crypto.randomUUID()
    const status = await sendReplay(kernel, replayRequest(kernel, record, options, id))
    const replayed = await store.get(id)
    return { id, replayOf: record.id, status, ...(replayed && { request: summaryOf(replayed) }) }
  })

  addManagementRoute(kernel, guard, 'GET', '/requests/:id/fixture', async (event) => {
    const record = await recordOf(store, event)
    const fixture = toFixture(record, pkg.version)
    if ('error' in fixture) throw new ManagementError(409, 'cannot export', { message: fixture.error })
    return reply(fixture, 200, { 'content-disposition': `attachment; filename="recorder-${record.id}.json"` })
  })
}
