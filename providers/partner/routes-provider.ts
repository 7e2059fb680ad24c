import type { H3Event } from 'h3'
import { type WireFormat, type ProxyKernel, ProxyError } from 'model-proxy'
import { errorResponse, toErrorInfo } from 'model-proxy/kit/errors'
import { readJsonObject } from 'model-proxy/kit/http'
import { authorizePartnerClient } from './access.ts'
import { decideModelRoute } from './model-route.ts'
import { formatOfLocalPath, generateModelMethod, providerSegments, segmentHelp, splitProviderPath } from './segments.ts'
import { serveLocally } from './serve-locally.ts'
import { sendToPartner } from './send-to-partner.ts'
import { partnerOf } from './config.ts'

/** The three provider-alias endpoints, each answering errors in its own format. */
const aliasRoutes: Array<{ path: string; format: WireFormat }> = [
  { path: '/api/provider/:segment/v1/chat/completions', format: 'chat' },
  { path: '/api/provider/:segment/v1/messages', format: 'messages' },
  { path: '/api/provider/:segment/v1beta/models/**', format: 'generate' },
  { path: '/api/provider/:segment/v1/models/**', format: 'generate' },
]

export function addProviderRoutes(kernel: ProxyKernel): void {
  for (const { path, format } of aliasRoutes) {
    kernel.app.post(path, async (event) => {
      try {
        return await serveAlias(kernel, event, format)
      } catch (error) {
        const info = toErrorInfo(error)
        if (info.status >= 500) kernel.logger.warn(`partner: POST ${event.url.pathname}: ${info.message}`)
        return errorResponse(kernel, format, info)
      }
    })
  }
}

/** Rule 17: local model, mapped model, or the partner upstream; the way taken is logged. */
async function serveAlias(kernel: ProxyKernel, event: H3Event, format: WireFormat): Promise<Response> {
  const clientKey = authorizePartnerClient(kernel, event, false)
  const { segment, localPath } = splitProviderPath(event.url.pathname)!
  if (providerSegments[segment] !== format || formatOfLocalPath(localPath) !== format) {
    throw new ProxyError(404, `no provider route ${event.url.pathname}: the segments are ${segmentHelp}, each with its own format's endpoint`, 'invalid_request_error', 'not_found')
  }
  const body = await readJsonObject(event)
  const text = JSON.stringify(body)
  const model = format === 'generate' ? generateModelMethod(localPath)![0] : body.model
  // No model: the endpoint itself answers with its usual 400.
  if (typeof model !== 'string' || !model) return serveLocally(kernel, event, localPath, text, clientKey)

  const settings = partnerOf(kernel.config)
  const route = decideModelRoute(model, settings, name => kernel.models.has(name))
  const where = `partner ${segment}: model ${JSON.stringify(model)}`
  if (route.way === 'local') {
    kernel.logger.debug(`${where} served locally`)
    return serveLocally(kernel, event, localPath, text, clientKey)
  }
  if (route.way === 'mapped') {
    kernel.logger.info(`${where} mapped to ${JSON.stringify(route.target)}, served locally`)
    return serveLocally(kernel, event, localPath, text, clientKey, route.target)
  }
  const why = route.target ? ` (its mapping target ${JSON.stringify(route.target)} has no providers either)` : ''
  if (!settings['upstream-url']) {
    kernel.logger.info(`${where} is not served locally${why} and no partner upstream is configured`)
    throw new ProxyError(404, `model ${JSON.stringify(model)} is not served by any configured provider (and partner.upstream-url is not set)`, 'invalid_request_error', 'model_not_found')
  }
  kernel.logger.info(`${where} is not served locally${why}: forwarded to the partner upstream`)
  return sendToPartner(kernel, event, { clientKey, body: text })
}
