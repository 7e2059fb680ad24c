import type { ProxyKernel } from '../kernel.ts'
import type { Candidate, ProxyRequest, ResponseContext } from '../hooks.ts'
import type { ProxyErrorInfo } from '../canonical/codec.ts'
import { ProxyError } from '../http/errors.ts'
import { sendUpstream } from '../http/upstream.ts'
import { jsonResponse, sseHeaders } from '../http/respond.ts'
import { buildUpstreamBody } from './upstream-body.ts'
import { translateResponse, type ClientEncoding } from './non-stream.ts'
import { createStreamTransform, pipeStream } from './stream.ts'
import { errorResponse, toErrorInfo } from './error-response.ts'
import { classifyUpstreamStatus, retryAfterSeconds } from './upstream-status.ts'
import { scrubSecrets } from '../credential.ts'

/** Options an endpoint passes about how the client wants its answer framed. */
export interface RunOptions {
  /** generateContent clients without `alt=sse` get a JSON-array stream. */
  sse?: boolean
  /** Encode the answer with this instead of the inbound format's codec (always translates). */
  client?: ClientEncoding
}

/**
 * The executor loop: resolve candidates, then per attempt pick a credential, shape the upstream request,
 * send it, and on a retryable failure try the next one — only ever before the first byte reaches the client.
 */
export async function runPipeline(kernel: ProxyKernel, request: ProxyRequest, options: RunOptions = {}): Promise<Response> {
  const { hooks, config } = kernel
  const route = { request, candidates: [] as Candidate[] }
  await hooks.callHook('route-resolve', route)
  if (!route.candidates.length) {
    return finishWithError(kernel, request, undefined, new ProxyError(404, `model ${JSON.stringify(request.model)} is not served by any configured provider`, 'invalid_request_error', 'model_not_found').info)
  }

  const tried = new Set<string>()
  const maxAttempts = 1 + config['request-retry']
  let lastError: ProxyErrorInfo | undefined
  let lastCandidate: Candidate | undefined
  const signal = request.event.req.signal

  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const pick = { request, candidates: route.candidates, tried, pick: undefined as Candidate | undefined }
    await hooks.callHook('credential-pick', pick)
    const candidate = pick.pick
    if (!candidate) break
    lastCandidate = candidate
    tried.add(candidate.credential.id)
    const provider = kernel.providers.get(candidate.credential.family)
    if (!provider) throw new ProxyError(500, `provider family ${candidate.credential.family} is not installed`, 'server_error')

    const body = buildUpstreamBody(kernel, request, provider.format, candidate.upstreamModel)
    const http = provider.buildRequest({ credential: candidate.credential, model: candidate.upstreamModel, body, stream: request.stream, endpoint: request.endpoint })
    await hooks.callHook('before-upstream', { request, candidate, http })

    let upstream
    try {
      upstream = await sendUpstream(http, signal)
    } catch (error) {
      if (signal.aborted) return new Response(null, { status: 499 })
      lastError = { status: 502, message: `upstream connection failed: ${(error as Error).message}`, type: 'server_error' }
      await hooks.callHook('attempt-result', { request, candidate, status: 0, message: lastError.message })
      continue
    }

    if (upstream.status >= 400) {
      const text = await upstream.body.text().catch(() => '')
      const info = decodeUpstreamError(kernel, provider.format, upstream.status, scrubSecrets(text, candidate.credential))
      await hooks.callHook('attempt-result', { request, candidate, status: upstream.status, retryAfter: retryAfterSeconds(upstream.headers['retry-after']), message: info.message })
      lastError = info
      if (classifyUpstreamStatus(upstream.status) === 'retry') continue
      return finishWithError(kernel, request, candidate, info)
    }
    await hooks.callHook('attempt-result', { request, candidate, status: upstream.status })

    const ctx: ResponseContext = { request, candidate, status: upstream.status, durationMs: 0, upstreamHeaders: upstream.headers, responseHeaders: {} }
    if (request.stream) {
      const transform = createStreamTransform(kernel, request, provider.format, candidate.upstreamModel, options.sse ?? true, options.client)
      const stream = pipeStream(upstream.body, transform, (outcome) => {
        ctx.usage = outcome.usage
        ctx.error = outcome.error
        ctx.durationMs = Date.now() - request.startedAt
        void hooks.callHook('after-response', ctx)
      })
      const contentType = options.sse === false ? { 'content-type': 'application/json' } : sseHeaders
      return new Response(stream, { status: 200, headers: { ...contentType, ...ctx.responseHeaders } })
    }
    const text = await upstream.body.text()
    const translated = translateResponse(kernel, request, provider.format, text, options.client)
    ctx.usage = translated.usage
    ctx.durationMs = Date.now() - request.startedAt
    await hooks.callHook('after-response', ctx)
    return jsonResponse(translated.body, 200, ctx.responseHeaders)
  }

  return finishWithError(kernel, request, lastCandidate, lastError ?? { status: 503, message: `no credential is available for model ${JSON.stringify(request.model)}`, type: 'server_error', code: 'no_credential_available' })
}

/** Upstream error body (its own format) -> what the client sees; never echoes credentials. */
function decodeUpstreamError(kernel: ProxyKernel, format: ProxyRequest['inbound'], status: number, text: string): ProxyErrorInfo {
  let body: unknown = text
  try { body = JSON.parse(text) } catch {}
  const codec = kernel.formats.get(format)
  const info = codec ? codec.error.decode(status, body) : { status, message: text.slice(0, 500) || `upstream returned ${status}` }
  // The upstream rejecting our credential is not the client's fault: report it as an upstream failure.
  const clientStatus = status === 401 || status === 403 ? 502 : status
  return { ...info, status: clientStatus, message: info.message || `upstream returned ${status}` }
}

async function finishWithError(kernel: ProxyKernel, request: ProxyRequest, candidate: Candidate | undefined, info: ProxyErrorInfo): Promise<Response> {
  await kernel.hooks.callHook('after-response', { request, candidate, status: info.status, error: info.message, durationMs: Date.now() - request.startedAt, responseHeaders: {} })
  return errorResponse(kernel, request.inbound, info)
}

export { toErrorInfo }
