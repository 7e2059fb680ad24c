import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, type Guard } from './route.ts'
import { ManagementError } from './respond.ts'
import { addApiCallRoute } from './routes-api-call.ts'
import { loadUndici } from 'model-proxy/kit/http'
import pkg from '../../package.json' with { type: 'json' }

const releaseTimeoutMs = 5000

/** A release listing in any of the usual shapes: npm `{version}`, a release `{tag_name}`, or a list of them. */
function tagOf(body: unknown): string | undefined {
  const item = Array.isArray(body) ? body[0] : body
  const value = (item as { tag_name?: unknown; version?: unknown; name?: unknown } | null)
  const tag = value?.tag_name ?? value?.version ?? value?.name
  return typeof tag === 'string' ? tag : undefined
}

/** `GET /latest-version` and `POST /api-call`. */
export function addMiscRoutes(kernel: ProxyKernel, guard: Guard): void {
  addManagementRoute(kernel, guard, 'GET', '/latest-version', async () => {
    const url = kernel.config['release-url'] || `https://registry.npmjs.org/${pkg.name}/latest`
    try {
      const response = await loadUndici().request(url, { headersTimeout: releaseTimeoutMs, bodyTimeout: releaseTimeoutMs, headers: { accept: 'application/json', 'user-agent': `${pkg.name}/${pkg.version}` } })
      const text = await response.body.text()
      if (response.statusCode >= 400) throw new Error(`release listing answered ${response.statusCode}`)
      const tag = tagOf(JSON.parse(text))
      if (!tag) throw new Error('release listing has no version')
      return { 'latest-version': tag }
    } catch (error) {
      throw new ManagementError(502, `could not fetch the latest version from ${url}: ${(error as Error).message}`)
    }
  })

  addApiCallRoute(kernel, guard)
}
