import { validHeader } from '../data/http-header.ts'
import type { UpstreamHttpRequest } from '../upstream/send.ts'

/**
 * What is wrong with an upstream request as `before-upstream` listeners left it, or undefined. Asked when
 * sending it failed before any answer (a request that goes out needs no check): a URL that is no URL or a
 * header no request may carry fails inside the HTTP client, which would read as "upstream connection
 * failed" (a 502 blaming the upstream, and a failover that repeats the same mistake on every credential)
 * when it is the plugin's bug.
 */
export function upstreamRequestProblem(http: UpstreamHttpRequest): string | undefined {
  const { url, headers, proxyUrl } = http as { url: unknown; headers: unknown; proxyUrl: unknown }
  if (typeof url !== 'string' || !/^https?:$/.test(URL.parse(url)?.protocol ?? '')) return 'its url is no http(s) URL'
  if (proxyUrl !== undefined && proxyUrl !== '' && (typeof proxyUrl !== 'string' || !URL.canParse(proxyUrl))) return 'its proxyUrl is no URL'
  if (!headers || typeof headers !== 'object') return 'its headers are no object'
  for (const name of Object.keys(headers)) {
    const value = (headers as Record<string, unknown>)[name]
    if (typeof value !== 'string' && typeof value !== 'number') return `header ${JSON.stringify(name.slice(0, 64))} is no string`
    if (!validHeader(name, String(value))) return `header ${JSON.stringify(name.slice(0, 64))} is not one a request may carry`
  }
}
