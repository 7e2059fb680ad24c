import { Readable } from 'node:stream'
import type { H3Event } from 'h3'
import { type ProxyKernel, ProxyError, type UpstreamHttpRequest } from 'model-proxy'
import { pipedResponse, sendUpstream, type UpstreamHttpResponse } from 'model-proxy/kit/http'
import { maskValues, scrubReadable } from 'model-proxy/kit/access'
import { partnerRequestHeaders, partnerResponseHeaders, partnerSearch } from './forward-headers.ts'
import { upstreamKeyFor } from './upstream-key.ts'
import { limitBody } from './limit-body.ts'
import { partnerBaseUrl, partnerOf } from './config.ts'

const methods = new Set<UpstreamHttpRequest['method']>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'])
const bodiless = new Set([204, 205, 304])

export interface PartnerCall {
  clientKey: string | undefined
  /** A body already read (provider-alias fallback); otherwise the client's body is streamed through. */
  body?: string
}

/**
 * Send the client's request to `partner.upstream-url` + the same path and query, with the partner key
 * for this client instead of the client's own, through the outbound proxy like any upstream call. The
 * answer (SSE included) is streamed back as it arrives, never buffered.
 */
export async function sendToPartner(kernel: ProxyKernel, event: H3Event, call: PartnerCall): Promise<Response> {
  const settings = partnerOf(kernel.config)
  const base = partnerBaseUrl(settings)
  if ('problem' in base) throw new ProxyError(503, base.problem, 'server_error', 'partner_not_configured')
  const method = event.req.method.toUpperCase() as UpstreamHttpRequest['method']
  if (!methods.has(method)) throw new ProxyError(405, `method ${method} is not proxied to the partner upstream`, 'invalid_request_error', 'method_not_allowed')

  const partnerKey = upstreamKeyFor(settings, call.clientKey)
  const isClientKey = (key: string) => key === call.clientKey || kernel.matchClientKey(key) !== undefined
  const limits = kernel.config.timeouts
  const streamed = call.body === undefined && method !== 'GET' && method !== 'HEAD' && event.req.body
    ? limitBody(Readable.fromWeb(event.req.body as never), event.context.maxBodyBytes ?? Number.POSITIVE_INFINITY, event.req.headers.get('content-length'))
    : undefined
  const request: UpstreamHttpRequest = {
    url: base.url + event.url.pathname + partnerSearch(event.url, isClientKey),
    method,
    headers: partnerRequestHeaders(event.req.headers, partnerKey, call.body !== undefined),
    body: call.body ?? streamed,
    // Rule 13 as for every upstream call: the global outbound proxy, if any.
    proxyUrl: kernel.config['proxy-url'] || undefined,
  }

  let upstream: UpstreamHttpResponse
  try {
    upstream = await sendUpstream(request, event.req.signal, { connectMs: limits['connect-seconds'] * 1000, firstByteMs: limits['first-byte-seconds'] * 1000, idleMs: limits['stream-idle-seconds'] * 1000 })
  } catch (error) {
    streamed?.destroy()
    if (error instanceof ProxyError) throw error
    const cause = (error as { cause?: unknown }).cause
    if (cause instanceof ProxyError) throw cause
    throw new ProxyError(502, `partner upstream request failed: ${(error as Error).message}`, 'server_error', 'partner_upstream_failed')
  }
  const headers = partnerResponseHeaders(upstream.headers)
  // The partner may quote the key it was sent (an error, a debug header): the client never gets it.
  if (partnerKey) {
    for (const [name, value] of [...headers]) headers.set(name, maskValues(value, [partnerKey]))
    // A masked key changes the body's length.
    headers.delete('content-length')
  }
  if (method === 'HEAD' || bodiless.has(upstream.status)) {
    upstream.body.resume()
    return new Response(null, { status: upstream.status, headers })
  }
  return pipedResponse(partnerKey ? scrubReadable(upstream.body, [partnerKey]) : upstream.body, upstream.status, headers)
}
