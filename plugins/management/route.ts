import { getRequestIP, type H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { ConfigError } from 'model-proxy/kit/config'
import { jsonDeeperThan, maxJsonDepth } from 'model-proxy/kit/guards'
import { answerHead, discardBody } from 'model-proxy/kit/http'
import { ManagementError, fail, reply } from './respond.ts'
import { changeOrigin } from './config-store.ts'

export const base = '/v0/management'
type Method = 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST'
export type Guard = { check(event: H3Event): Promise<Response | undefined> }

/** A management route: access rules first, then the handler; its value becomes JSON, errors `{error}`. */
export function addManagementRoute(kernel: ProxyKernel, guard: Guard, methods: Method | Method[], path: string, handler: (event: H3Event) => unknown): void {
  for (const method of Array.isArray(methods) ? methods : [methods]) {
    kernel.app.on(method, base + path, async (event) => {
      const refused = await guard.check(event)
      if (refused) return refused
      try {
        const who = kernel.services.clientAddress?.(event) ?? getRequestIP(event) ?? 'unknown'
        const result = await changeOrigin.run(`${method} ${base}${path} from ${who}`, () => handler(event))
        return result instanceof Response ? result : reply(result)
      } catch (error) {
        const name = (error as Error)?.name
        if (name === 'ManagementError') return fail((error as ManagementError).status, (error as ManagementError).error, (error as ManagementError).extra)
        if (name === 'ConfigError') return fail(400, 'invalid_config', { message: (error as ConfigError).issues.join('; ') })
        if (name === 'ConfigWriteError') return fail(500, `failed to save config: ${(error as Error).message}`)
        if (name === 'ConfigConflictError') return fail(412, 'config_changed', { message: (error as Error).message })
        kernel.logger.error(`${method} ${base}${path}:`, error)
        return fail(500, 'internal error')
      }
    })
  }
}

/** Any other path under the base: the access rules, then a 404 in the management format. */
export function addManagementFallback(kernel: ProxyKernel, guard: Guard): void {
  kernel.app.all(`${base}/**`, async (event) => {
    if (event.req.method === 'HEAD') return answerHead(kernel.app, event)
    await discardBody(event.req)
    return await guard.check(event) ?? fail(404, `no management route for ${event.req.method} ${event.url.pathname}`)
  })
  kernel.app.all(base, async (event) => {
    if (event.req.method === 'HEAD') return answerHead(kernel.app, event)
    await discardBody(event.req)
    return await guard.check(event) ?? fail(404, 'no management route here: see /v0/management/config')
  })
}

/** A JSON body, or the spec's `invalid body`. A `__proto__` key anywhere is refused: bodies are merged into the config. */
export async function readBody(event: H3Event): Promise<unknown> {
  const text = await event.req.text()
  if (jsonDeeperThan(text)) throw new ManagementError(400, 'invalid body', { message: `nested more than ${maxJsonDepth} levels deep` })
  let protoKey = false
  let body: unknown
  try {
    body = JSON.parse(text, (key, value) => {
      if (key === '__proto__') protoKey = true
      return value
    })
  } catch {
    throw new ManagementError(400, 'invalid body')
  }
  if (protoKey) throw new ManagementError(400, 'invalid body', { message: '"__proto__" keys are not accepted' })
  return body
}

/** `{value: T}` with a value of the expected type, or `invalid body`. */
export async function readValue<T>(event: H3Event, check: (value: unknown) => value is T): Promise<T> {
  const body = await readBody(event) as { value?: unknown } | null
  if (!body || typeof body !== 'object' || !('value' in body) || !check(body.value)) throw new ManagementError(400, 'invalid body')
  return body.value as T
}
