import { defineProxyPlugin } from '../../core/plugin.ts'
import { addClientRoute } from '../../core/http/client-route.ts'
import { jsonResponse } from '../../core/http/respond.ts'
import { messagesModelList, openaiModelList, wantsMessagesList, type ListedModel } from './list-shapes.ts'

/** `GET /v1/models`: the model names clients may use (aliases), shape chosen by User-Agent. */
export default defineProxyPlugin({
  name: 'models',
  setup(kernel) {
    const created = Math.floor(Date.now() / 1000)
    addClientRoute(kernel, {
      method: 'GET',
      path: '/v1/models',
      format: 'chat',
      handler(event) {
        const models: ListedModel[] = []
        const available = kernel.services.availability
        for (const [id, candidates] of kernel.models) {
          // Rule 7: a model stays listed while one of its credentials is usable, hidden once the last cools down.
          if (available && !candidates.some(candidate => available(candidate) === true)) continue
          models.push({ id, ownedBy: candidates[0]?.credential.provider ?? 'proxy' })
        }
        models.sort((a, b) => a.id.localeCompare(b.id))
        const messages = wantsMessagesList(event.req.headers.get('user-agent'))
        return jsonResponse(messages ? messagesModelList(models, created) : openaiModelList(models, created))
      },
    })
  },
})
