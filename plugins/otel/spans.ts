import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { defineRequestState, type AttemptResult, type ProxyRequest, type ResponseContext, type RouteContext, type UpstreamContext } from 'model-proxy'
import { finishReasonsOf, genAi, operationOf, proxyAttr, serverAttributes, usageAttributes } from './attributes.ts'

/** What one request's trace holds while it runs. */
interface RequestTrace {
  span: Span
  ctx: Context
  /** The attempt in flight (ended by its failure, or with the request when it answered). */
  attempt?: Span
  attempts: number
  credentials: Set<string>
}

const propagator = new W3CTraceContextPropagator()
const headerGetter = {
  keys: (carrier: Headers) => [...carrier.keys()],
  get: (carrier: Headers, key: string) => carrier.get(key) ?? undefined,
}

/**
 * The hook listeners that turn a request into spans: one SERVER span per request (from its arrival,
 * a child of the client's `traceparent` when it sent one) and one CLIENT span per upstream attempt.
 * Every listener catches its own failures: two of these hooks decide, and tracing must never fail a request.
 */
export function createSpanRecorder(tracer: Tracer) {
  const traces = defineRequestState<RequestTrace>('otel')

  const traceOf = (request: ProxyRequest): RequestTrace => {
    let found = traces.get(request)
    if (found) return found
    const parent = propagator.extract(ROOT_CONTEXT, request.event.req.headers, headerGetter)
    const operation = operationOf(request.inbound, request.endpoint)
    const span = tracer.startSpan(`${operation} ${request.model}`, {
      kind: SpanKind.SERVER,
      startTime: request.startedAt,
      attributes: { [genAi.operation]: operation, [genAi.requestModel]: request.model, [proxyAttr.inbound]: request.inbound, [proxyAttr.stream]: request.stream },
    }, parent)
    found = { span, ctx: trace.setSpan(parent, span), attempts: 0, credentials: new Set() }
    traces.set(request, found)
    return found
  }

  const guard = <A extends unknown[]>(fn: (...args: A) => void) => (...args: A): void => {
    try {
      fn(...args)
    } catch {}
  }

  return {
    routeResolved: guard(({ request, candidates }: RouteContext) => {
      const { span } = traceOf(request)
      // Token counts are GenAI attributes: answers that could pass through as bytes are read for their usage.
      request.needsUsage = true
      span.setAttribute(proxyAttr.candidates, candidates.length)
      if (request.rule) span.setAttribute(proxyAttr.rule, request.rule)
      if (request.session) span.setAttribute(genAi.conversation, request.session)
    }),

    beforeUpstream: guard(({ request, candidate, http }: UpstreamContext) => {
      const state = traceOf(request)
      state.attempt?.end()
      const { credential, upstreamModel } = candidate
      const operation = operationOf(request.inbound, request.endpoint)
      state.attempt = tracer.startSpan(`${operation} ${upstreamModel}`, {
        kind: SpanKind.CLIENT,
        attributes: {
          [genAi.operation]: operation,
          [genAi.provider]: credential.provider,
          [genAi.requestModel]: upstreamModel,
          [proxyAttr.credential]: credential.id,
          [proxyAttr.family]: credential.family,
          [proxyAttr.attempt]: state.attempts,
          [proxyAttr.servedModel]: request.servedModel ?? request.model,
          ...serverAttributes(http.url),
        },
      }, state.ctx)
      state.attempts++
      state.credentials.add(credential.id)
    }),

    attemptResult: guard((result: AttemptResult) => {
      const state = traces.get(result.request)
      const span = state?.attempt
      if (!span) return
      span.setAttribute(proxyAttr.action, result.action)
      if (result.status) span.setAttribute('http.response.status_code', result.status)
      if (result.action === 'done') return
      span.setAttribute('error.type', result.status ? String(result.status) : 'connection_failed')
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.message })
      span.end()
      state.attempt = undefined
      state.span.addEvent(result.action === 'retry' ? 'retry' : 'attempt_failed', { [proxyAttr.credential]: result.candidate.credential.id, 'http.response.status_code': result.status })
    }),

    afterResponse: guard((ctx: ResponseContext) => {
      const { request, candidate } = ctx
      const state = traceOf(request)
      traces.set(request, undefined)
      const failed = ctx.status >= 400 || !!ctx.error
      const answered: Record<string, string | number | boolean | string[]> = { ...usageAttributes(ctx.usage) }
      if (candidate) {
        answered[genAi.provider] = candidate.credential.provider
        answered[proxyAttr.credential] = candidate.credential.id
        // A failed request names the last credential tried, but no model answered it.
        if (!failed) answered[genAi.responseModel] = candidate.upstreamModel
      }
      const reasons = finishReasonsOf(request.inbound, ctx.answer)
      if (reasons.length) answered[genAi.finishReasons] = reasons
      if (typeof ctx.answer?.id === 'string') answered[genAi.responseId] = ctx.answer.id
      if (state.attempt) {
        state.attempt.setAttributes(answered)
        endWith(state.attempt, failed, ctx)
      }
      state.span.setAttributes({
        ...answered,
        'http.response.status_code': ctx.status,
        [proxyAttr.attempts]: state.attempts,
        [proxyAttr.failover]: state.credentials.size > 1,
        [proxyAttr.fallback]: !!request.servedModel,
      })
      if (request.servedModel) state.span.setAttribute(proxyAttr.servedModel, request.servedModel)
      endWith(state.span, failed, ctx)
    }),
  }
}

function endWith(span: Span, failed: boolean, ctx: ResponseContext): void {
  if (failed) {
    span.setAttribute('error.type', ctx.status >= 400 ? String(ctx.status) : 'stream_error')
    span.setStatus({ code: SpanStatusCode.ERROR, message: ctx.error })
  }
  span.end()
}
