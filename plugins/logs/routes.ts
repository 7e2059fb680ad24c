import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { getQuery, getRouterParam } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, type Guard, ManagementError, buildHeaders } from '../management/api.ts'
import type { MainLog } from './main-log.ts'
import { lineTime } from './line-format.ts'
import { listLogs } from './request-logs.ts'

function download(dir: string, name: string): Response {
  return new Response(readFileSync(join(dir, name)), { headers: { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `attachment; filename="${name}"`, ...buildHeaders } })
}

/** The log endpoints, with the spec's error bodies. */
export function addLogRoutes(kernel: ProxyKernel, guard: Guard, log: MainLog, dir: () => string): void {
  const needFileLogging = () => {
    if (!kernel.config['logging-to-file']) throw new ManagementError(400, 'logging to file disabled')
    if (!dir()) throw new ManagementError(400, 'log directory not configured')
  }

  addManagementRoute(kernel, guard, 'GET', '/logs', (event) => {
    needFileLogging()
    const query = getQuery(event) as Record<string, string | undefined>
    return readLogLines(log, Number(query.limit) || 0, Number(query.after) || 0)
  })
  addManagementRoute(kernel, guard, 'DELETE', '/logs', () => {
    needFileLogging()
    const removed = log.clear()
    return { success: true, message: 'logs cleared', removed }
  })
  addManagementRoute(kernel, guard, 'GET', '/request-error-logs', () => {
    if (kernel.config['request-log']) return { files: [] }
    return { files: listLogs(dir(), 'error').sort((a, b) => b.modified - a.modified || b.name.localeCompare(a.name)) }
  })
  addManagementRoute(kernel, guard, 'GET', '/request-error-logs/:name', (event) => {
    const name = decodeURIComponent(getRouterParam(event, 'name') ?? '')
    if (!/^error-[\w.-]+\.log$/.test(name) || name.includes('..')) throw new ManagementError(400, 'invalid file name')
    if (!existsSync(join(dir(), name))) throw new ManagementError(404, 'log file not found')
    return download(dir(), name)
  })
  addManagementRoute(kernel, guard, 'GET', '/request-log-by-id/:id', (event) => {
    const id = decodeURIComponent(getRouterParam(event, 'id') ?? '')
    if (!id || /[/\\]/.test(id) || id.includes('..')) throw new ManagementError(400, 'invalid request ID')
    const name = existsSync(dir()) ? readdirSync(dir()).find(file => file.endsWith(`-${id}.log`) && /^(error|request)-/.test(file)) : undefined
    if (!name) throw new ManagementError(404, 'log file not found for the given request ID')
    return download(dir(), name)
  })
}

/** `GET /logs?limit=&after=`: newest lines (after a Unix time), with the timestamp to poll from next. */
export function readLogLines(log: MainLog, limit: number, after: number) {
  log.flush()
  const files = [...log.rotated().reverse().map(name => join(log.path, '..', name)), log.path]
  let lines: string[] = []
  for (const file of files) if (existsSync(file)) lines.push(...readFileSync(file, 'utf8').split('\n').filter(Boolean))
  if (after > 0) lines = lines.filter(line => (lineTime(line) ?? 0) > after)
  if (limit > 0) lines = lines.slice(-limit)
  const latest = lines.reduce((max, line) => Math.max(max, lineTime(line) ?? 0), after)
  return { lines, 'line-count': lines.length, 'latest-timestamp': latest }
}
