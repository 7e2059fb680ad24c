import type { ResponseContext } from 'model-proxy'

/** Which model answered, when routing chose another than the client asked for (a rule or a fallback). */
export const servedModelHeaderName = 'x-proxy-served-model'

export function servedModelHeader(ctx: ResponseContext): void {
  if (ctx.request.servedModel) ctx.responseHeaders[servedModelHeaderName] = ctx.request.servedModel
}
