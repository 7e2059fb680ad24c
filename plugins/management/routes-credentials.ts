import type { ProxyKernel } from 'model-proxy'
import { maskSecret } from 'model-proxy/kit/access'
import { isServedOffer } from 'model-proxy/kit/models'
import { addManagementRoute, readBody, type Guard } from './route.ts'
import { ManagementError } from './respond.ts'
import { trackCredentialStats } from './credential-stats.ts'

/**
 * Credential states for operators: list every credential with its state and cooldowns; block, unblock
 * and reset a cooldown by id (routing rules' `blocked` state and manual recovery).
 */
export function addCredentialRoutes(kernel: ProxyKernel, guard: Guard): void {
  const statsOf = trackCredentialStats(kernel)
  const state = () => kernel.services.routingState
  const known = (id: unknown) => {
    if (typeof id !== 'string' || !kernel.credentials.some(credential => credential.id === id)) throw new ManagementError(404, 'credential not found')
    const routing = state()
    if (!routing) throw new ManagementError(503, 'routing plugin not installed')
    return { id, routing }
  }

  addManagementRoute(kernel, guard, 'GET', '/credentials', () => {
    const routing = state()
    const now = Date.now()
    return {
      credentials: kernel.credentials.map((credential) => {
        const record = routing?.record(credential.id)
        const cooldowns = Object.entries(record?.cooldowns ?? {}).filter(([, c]) => c.until > now).map(([model, c]) => ({ model, until: new Date(c.until).toISOString(), failures: c.failures, ...(c.refused && { refused: true }) }))
        return {
          id: credential.id, family: credential.family, provider: credential.provider, label: maskSecret(credential.apiKey ?? credential.accessToken),
          priority: credential.priority, prefix: credential.prefix, state: routing?.stateOf(credential.id) ?? 'ready',
          ...(record?.blocked && { blocked: record.blocked.reason }), cooldowns,
          // What it serves: `excluded-models` patterns remove offers (as the model index does); the patterns are listed apart.
          models: credential.models.filter(offer => isServedOffer(credential.excludedModels, offer)).map(model => model.id),
          'excluded-models': credential.excludedModels, stats: statsOf(credential.id),
        }
      }),
    }
  })
  addManagementRoute(kernel, guard, 'POST', '/credentials/block', async (event) => {
    const body = await readBody(event) as { id?: unknown; reason?: unknown } | null
    const { id, routing } = known(body?.id)
    routing.block(id, typeof body?.reason === 'string' ? body.reason : 'blocked by an operator')
    return { status: 'ok' }
  })
  addManagementRoute(kernel, guard, 'POST', '/credentials/unblock', async (event) => {
    const { id, routing } = known((await readBody(event) as { id?: unknown } | null)?.id)
    routing.unblock(id)
    return { status: 'ok' }
  })
  addManagementRoute(kernel, guard, 'POST', '/credentials/reset-cooldown', async (event) => {
    const { id, routing } = known((await readBody(event) as { id?: unknown } | null)?.id)
    routing.resetCooldown(id)
    return { status: 'ok' }
  })
}
