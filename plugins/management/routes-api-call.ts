import { JsonBody, type ProxyKernel, type Credential } from 'model-proxy'
import { scrubSecrets } from 'model-proxy/kit/access'
import { upstreamUrlProblem } from 'model-proxy/kit/config'
import { describeConnectFailure, sendUpstream } from 'model-proxy/kit/http'
import { addManagementRoute, readBody, type Guard } from './route.ts'
import { ManagementError } from './respond.ts'
import { isAllowedUpstreamHost, mayCarryCredential } from './upstream-hosts.ts'

interface ApiCallBody { credential?: unknown; method?: unknown; path?: unknown; url?: unknown; body?: unknown }

/** A test call answers within `timeouts.first-byte-seconds` or this, the shorter: the panel's Test button should not wait the 300 s a generation may take. */
const callLimitMs = 30_000

const pathError = () => new ManagementError(400, 'path must be a path on the credential\'s own base URL')

/** `path` on the credential's base URL: a plain path only (no `//`, scheme, `..` or `@`). */
function targetOfPath(credential: Credential, path: string): URL {
  if (!path.startsWith('/') || path.startsWith('//') || /^\/?[a-z]+:/i.test(path) || path.includes('..') || path.includes('@')) throw pathError()
  const target = new URL(credential.baseUrl + path)
  if (target.origin !== new URL(credential.baseUrl).origin) throw pathError()
  return target
}

function targetOfUrl(url: string): URL {
  const problem = upstreamUrlProblem(url)
  if (problem) throw new ManagementError(400, `url ${problem}`)
  return new URL(url)
}

/**
 * `POST /api-call`: an upstream call for testing a provider from the panel, `{credential, path}` (on the
 * credential's base URL) or `{credential?, url}`. Never an open relay: the host must be the base-URL host
 * of a configured credential or a built-in provider's host (403 otherwise), and a credential's auth
 * headers go only to its own host. Redirects are not followed.
 */
export function addApiCallRoute(kernel: ProxyKernel, guard: Guard): void {
  addManagementRoute(kernel, guard, 'POST', '/api-call', async (event) => {
    const body = await readBody(event) as ApiCallBody | null
    if (!body || typeof body !== 'object') throw new ManagementError(400, 'invalid body')
    const byPath = typeof body.path === 'string'
    if (byPath === (typeof body.url === 'string') || (body.credential !== undefined && typeof body.credential !== 'string') || (byPath && !body.credential)) throw new ManagementError(400, 'invalid body')
    let credential: Credential | undefined
    if (body.credential) {
      credential = kernel.credentials.find(c => c.id === body.credential)
      if (!credential) throw new ManagementError(404, 'credential not found')
    }
    const target = byPath ? targetOfPath(credential!, body.path as string) : targetOfUrl(body.url as string)
    if (!isAllowedUpstreamHost(target.host, kernel.credentials, kernel.providers)) throw new ManagementError(403, `api-call only reaches the upstream host of a configured credential or of a built-in provider; ${target.host} is neither`)
    if (credential && !mayCarryCredential(target.host, credential, kernel.providers)) throw new ManagementError(403, `credential ${credential.id} is only sent to its own upstream host, not ${target.host}`)

    const method = body.method === 'GET' ? 'GET' : 'POST'
    let headers: Record<string, string> = {}
    if (credential) {
      const provider = kernel.providers.get(credential.family)
      if (!provider) throw new ManagementError(500, `provider family ${credential.family} is not installed`)
      // The provider's own request builder supplies the auth headers it always sends.
      headers = provider.buildRequest({ credential, model: '', body: new JsonBody({}), stream: false, endpoint: 'api-call' }).headers
    }
    const proxyUrl = credential?.proxyUrl ?? (kernel.config['proxy-url'] || undefined)
    const limits = kernel.config.timeouts
    const limitMs = Math.min(limits['first-byte-seconds'] * 1000, callLimitMs)
    let response: Awaited<ReturnType<typeof sendUpstream>>
    let raw: string
    try {
      response = await sendUpstream({
        url: target.toString(), method, headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
        body: method === 'POST' ? JSON.stringify(body.body ?? {}) : undefined,
        proxyUrl,
      }, AbortSignal.timeout(limitMs), { connectMs: Math.min(limits['connect-seconds'] * 1000, limitMs) })
      raw = await response.body.text()
    } catch (error) {
      // No answer is the upstream's failure, not the proxy's: 504 when it was too slow, 502 otherwise, in words that name no address.
      const failure = error as Error
      if (failure.name === 'TimeoutError' || failure.name === 'AbortError') throw new ManagementError(504, `the upstream did not answer within ${limitMs / 1000} s`)
      const { message } = describeConnectFailure(failure, proxyUrl)
      throw new ManagementError(message.endsWith('timed out') ? 504 : 502, message)
    }
    const text = credential ? scrubSecrets(raw, credential) : raw
    let parsed: unknown = text
    try { parsed = JSON.parse(text) } catch {}
    return { status: response.status, body: parsed }
  })
}
