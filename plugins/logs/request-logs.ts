import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BodyReleasedError, type ResponseContext } from 'model-proxy'

const maxBodyChars = 64 * 1024
const stamp = (time: number) => new Date(time).toISOString().replace(/[-:]/g, '').replace('.', '')

/** The text of one request log: what came in, where it went, what came back. */
export function requestLogText(ctx: ResponseContext, redact: (text: string) => string): string {
  const { request } = ctx
  const headers = [...request.event.req.headers].map(([name, value]) => `${name}: ${value}`).join('\n')
  let body = bodyText(ctx)
  if (body.length > maxBodyChars) body = `${body.slice(0, maxBodyChars)}\n... (${body.length - maxBodyChars} more characters)`
  return redact([
    `request id: ${request.id}`,
    `time: ${new Date(request.startedAt).toISOString()}`,
    `endpoint: ${request.event.req.method} ${request.event.url.pathname}`,
    `model: ${request.model}${ctx.candidate ? ` -> ${ctx.candidate.upstreamModel} via ${ctx.candidate.credential.id}` : ''}`,
    `status: ${ctx.status}`,
    `duration: ${ctx.durationMs} ms`,
    ...(ctx.error ? [`error: ${ctx.error}`] : []),
    '',
    '--- request headers ---',
    headers,
    '',
    '--- request body ---',
    body,
    '',
  ].join('\n'))
}

/** The body as JSON; a stream started while file logging was off has let it go (logging turned on since). */
function bodyText({ request }: ResponseContext): string {
  try {
    return JSON.stringify(request.body, null, 2)
  } catch (error) {
    if (error instanceof BodyReleasedError) return '(not kept: file logging was off when the stream answer started)'
    throw error
  }
}

/** `error-<timestamp>-<id>.log` (or `request-...` when every request is logged), capped in number. */
export function writeRequestLog(dir: string, kind: 'error' | 'request', ctx: ResponseContext, text: string, maxFiles: number): string {
  mkdirSync(dir, { recursive: true })
  const name = `${kind}-${stamp(ctx.request.startedAt)}-${ctx.request.id}.log`
  writeFileSync(join(dir, name), text, { mode: 0o600 })
  if (kind === 'error' && maxFiles > 0) {
    const files = listLogs(dir, 'error').sort((a, b) => a.modified - b.modified || a.name.localeCompare(b.name))
    for (const file of files.slice(0, Math.max(0, files.length - maxFiles))) rmSync(join(dir, file.name))
  }
  return name
}

export function listLogs(dir: string, kind: 'error' | 'request') {
  if (!existsSync(dir)) return []
  return readdirSync(dir).filter(name => name.startsWith(`${kind}-`) && name.endsWith('.log')).map((name) => {
    const stat = statSync(join(dir, name))
    return { name, size: stat.size, modified: Math.floor(stat.mtimeMs / 1000) }
  })
}
