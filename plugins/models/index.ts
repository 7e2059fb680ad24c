import type { H3Event } from 'h3'
import { type ListedModel, type WireFormat, defineProxyPlugin, ProxyError, type ProxyKernel } from 'model-proxy'
import { addClientRoute, jsonResponse } from 'model-proxy/kit/http'
import { compareModelIds, shownModelName } from 'model-proxy/kit/models'
import { listFormatFor } from './list-shapes.ts'

/** `/v1beta/models/models%2Fx` or `/v1/models/x` -> `x` (generateContent SDKs put `models/` in front). */
const modelIdOf = (event: H3Event, prefix: string) => decodeURIComponent(event.url.pathname.slice(prefix.length)).replace(/^models\//, '')

const clientFormat = (event: H3Event): WireFormat => listFormatFor({
  userAgent: event.req.headers.get('user-agent'),
  anthropicVersion: event.req.headers.has('anthropic-version'),
  xApiKey: event.req.headers.has('x-api-key'),
  googKey: event.req.headers.has('x-goog-api-key') || event.url.searchParams.has('key'),
})

/** The models clients may name (aliases), sorted; rule 7: a model is listed while one of its credentials is usable. */
function listedModels(kernel: ProxyKernel, created: number, clientKey: string | undefined): ListedModel[] {
  const models: ListedModel[] = []
  const available = kernel.services.availability
  // A named client key sees only the models it may use.
  const keys = clientKey === undefined ? undefined : kernel.services.clientKeys
  for (const [id, candidates] of kernel.models) {
    if (available && !candidates.some(candidate => available(candidate) === true)) continue
    if (keys && !keys.allowsModel(clientKey!, id)) continue
    const info = kernel.modelInfo.get(candidates[0]?.upstreamModel ?? id)
    models.push({ id, ownedBy: candidates[0]?.credential.provider ?? 'proxy', created, ...(info && { info }) })
  }
  return models.sort((a, b) => compareModelIds(a.id, b.id))
}

/**
 * The model listings: `GET /v1/models` and `/v1/models/{id}` in the shape the client's SDK expects
 * (openai, the messages SDK, genai 3), `GET /v1beta/models[/{model}]` in the generateContent shape.
 */
export default defineProxyPlugin({
  name: 'models',
  setup(kernel) {
    const created = Math.floor(Date.now() / 1000)
    const shape = (format: WireFormat) => {
      const models = kernel.formats.get(format)?.models ?? kernel.formats.get('chat')?.models
      if (!models) throw new ProxyError(501, `no model listing for ${format} is installed`, 'server_error')
      return models
    }
    const routes: Array<{ prefix: string; format: (event: H3Event) => WireFormat }> = [
      { prefix: '/v1/models', format: clientFormat },
      { prefix: '/v1beta/models', format: () => 'generate' },
    ]
    for (const { prefix, format } of routes) {
      addClientRoute(kernel, { method: 'GET', path: prefix, format, handler: (event, key) => jsonResponse(shape(format(event)).list(listedModels(kernel, created, key), event.url.searchParams)) })
      addClientRoute(kernel, {
        method: 'GET',
        path: `${prefix}/**`,
        format,
        handler(event, key) {
          const id = modelIdOf(event, `${prefix}/`)
          const model = listedModels(kernel, created, key).find(listed => listed.id === id)
          if (!model) throw new ProxyError(404, `model ${JSON.stringify(shownModelName(id))} is not served by any configured provider`, 'invalid_request_error', 'model_not_found')
          return jsonResponse(shape(format(event)).entry(model))
        },
      })
    }
  },
})
