import type { ProxyKernel } from 'model-proxy'
import { resolveSecretRefs } from 'model-proxy/kit/config'
import { addManagementRoute, readValue, type Guard } from './route.ts'
import { updateConfig } from './config-store.ts'
import { writeKeeping } from './write-keeping.ts'

const isBool = (v: unknown): v is boolean => typeof v === 'boolean'
const isInt = (v: unknown): v is number => Number.isInteger(v)
const isString = (v: unknown): v is string => typeof v === 'string'

/** Single-field endpoints: URL path, YAML path, value check. GET answers `{<last path segment>: value}`. */
const fields: Array<[string, string[], (v: unknown) => boolean]> = [
  ['/debug', ['debug'], isBool],
  ['/usage-statistics-enabled', ['usage-statistics-enabled'], isBool],
  ['/logging-to-file', ['logging-to-file'], isBool],
  ['/request-log', ['request-log'], isBool],
  ['/proxy-url', ['proxy-url'], isString],
  ['/request-retry', ['request-retry'], isInt],
  ['/max-retry-interval', ['max-retry-interval'], isInt],
  ['/routing/strategy', ['routing', 'strategy'], isString],
  ['/logs-max-total-size-mb', ['logs-max-total-size-mb'], isInt],
  ['/error-logs-max-files', ['error-logs-max-files'], isInt],
  ['/quota-exceeded/switch-project', ['quota-exceeded', 'switch-project'], isBool],
  ['/quota-exceeded/switch-preview-model', ['quota-exceeded', 'switch-preview-model'], isBool],
]

function read(config: object, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], config)
}

export function addFieldRoutes(kernel: ProxyKernel, guard: Guard): void {
  for (const [route, path, check] of fields) {
    const key = path.at(-1)!
    addManagementRoute(kernel, guard, 'GET', route, () => ({ [key]: read(kernel.config, path) }))
    addManagementRoute(kernel, guard, ['PUT', 'PATCH'], route, async (event) => {
      const value = await readValue(event, check as (v: unknown) => v is unknown)
      await updateConfig(kernel, doc => writeKeeping(doc, path, value, resolveSecretRefs(doc.getIn(path)).data))
      return { status: 'ok' }
    })
  }
  addManagementRoute(kernel, guard, 'DELETE', '/proxy-url', async () => {
    await updateConfig(kernel, doc => doc.setIn(['proxy-url'], ''))
    return { status: 'ok' }
  })
}
