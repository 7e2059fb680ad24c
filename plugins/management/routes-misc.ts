import { request } from 'undici'
import type { ProxyKernel } from '../../core/kernel.ts'
import { addManagementRoute, readBody, type Guard } from './route.ts'
import { ManagementError } from './respond.ts'
import { sendUpstream } from '../../core/http/upstream.ts'
import { scrubSecrets } from '../../core/credential.ts'
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
    const url = (kernel.config as { 'release-url'?: string })['release-url'] || `https://registry.npmjs.org/${pkg.name}/latest`
    try {
      const response = await request(url, { headersTimeout: releaseTimeoutMs, bodyTimeout: releaseTimeoutMs, headers: { accept: 'application/json', 'user-agent': `${pkg.name}/${pkg.version}` } })
      const text = await response.body.text()
      if (response.statusCode >= 400) throw new Error(`release listing answered ${response.statusCode}`)
      const tag = tagOf(JSON.parse(text))
      if (!tag) throw new Error('release listing has no version')
      return { 'latest-version': tag }
    } catch (error) {
      throw new ManagementError(502, `could not fetch the latest version from ${url}: ${(error as Error).message}`)
    }
  })

  /**
   * An upstream call made with a stored credential, for testing a provider from the panel. The target
   * is always the credential's own base URL plus a path: no open relay to arbitrary hosts.
   */
  addManagementRoute(kernel, guard, 'POST', '/api-call', async (event) => {
    const body = await readBody(event) as { credential?: unknown; method?: unknown; path?: unknown; body?: unknown } | null
    if (!body || typeof body.credential !== 'string' || typeof body.path !== 'string') throw new ManagementError(400, 'invalid body')
    if (!body.path.startsWith('/') || body.path.startsWith('//') || /^\/?[a-z]+:/i.test(body.path) || body.path.includes('..') || body.path.includes('@')) throw new ManagementError(400, 'path must be a path on the credential\'s own base URL')
    const credential = kernel.credentials.find(c => c.id === body.credential)
    if (!credential) throw new ManagementError(404, 'credential not found')
    const method = body.method === 'GET' ? 'GET' : 'POST'
    const target = new URL(credential.baseUrl + body.path)
    if (target.origin !== new URL(credential.baseUrl).origin) throw new ManagementError(400, 'path must be a path on the credential\'s own base URL')
    const provider = kernel.providers.get(credential.family)
    if (!provider) throw new ManagementError(500, `provider family ${credential.family} is not installed`)
    // The provider's own request builder supplies the auth headers it always sends.
    const template = provider.buildRequest({ credential, model: '', body: {}, stream: false, endpoint: 'api-call' })
    const headers = { ...template.headers, 'content-type': 'application/json', accept: 'application/json' }
    const response = await sendUpstream({ url: target.toString(), method, headers, body: method === 'POST' ? JSON.stringify(body.body ?? {}) : undefined, proxyUrl: credential.proxyUrl ?? (kernel.config['proxy-url'] || undefined) })
    const text = scrubSecrets(await response.body.text(), credential)
    let parsed: unknown = text
    try { parsed = JSON.parse(text) } catch {}
    return { status: response.status, body: parsed }
  })
}
