import { defineProxyPlugin } from 'model-proxy'
import { addManagementRoute, readBody, ManagementError } from '../management/api.ts'
import { previewRoute, routingOverview, type PreviewInput } from './preview.ts'

/**
 * `POST /v0/management/route-preview` (a dry run: which rule, model, candidates and session a request
 * would get; nothing is sent upstream) and `GET /v0/management/routing` (each credential's state, quota
 * windows and sessions). Loaded after the management plugin, whose access rules guard both.
 */
export default defineProxyPlugin({
  name: 'route-preview',
  after: ['routing', 'management'],
  setup(kernel) {
    const guard = kernel.services.managementGuard
    const chooser = kernel.services.routing
    if (!guard || !chooser) return
    addManagementRoute(kernel, guard, 'POST', '/route-preview', async (event) => {
      const body = await readBody(event) as Record<string, unknown> | null
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ManagementError(400, 'invalid body')
      // Either the client request itself, or `{request, format?, headers?, client-key?}`.
      const wrapped = body.request && typeof body.request === 'object' && !Array.isArray(body.request)
      const input: PreviewInput = wrapped
        ? { request: body.request as Record<string, unknown>, format: body.format as string | undefined, headers: body.headers as Record<string, string> | undefined, clientKey: body['client-key'] as string | undefined }
        : { request: body, format: new URL(event.req.url).searchParams.get('format') ?? undefined }
      if (typeof input.request.model !== 'string' || !input.request.model) throw new ManagementError(400, 'invalid body', { message: 'the request needs a model' })
      if (input.headers && (typeof input.headers !== 'object' || Object.values(input.headers).some(v => typeof v !== 'string'))) throw new ManagementError(400, 'invalid body', { message: 'headers must map names to strings' })
      try {
        return await previewRoute(kernel, chooser, input)
      } catch (error) {
        throw new ManagementError(400, 'invalid body', { message: `the request could not be read: ${(error as Error).message}` })
      }
    })
    addManagementRoute(kernel, guard, 'GET', '/routing', () => routingOverview(kernel, chooser))
  },
})
