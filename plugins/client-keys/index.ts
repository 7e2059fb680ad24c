import { defineProxyPlugin } from 'model-proxy'
import { clientKeysConfigSchema, clientKeysOf } from './schema.ts'
import { KeyDirectory } from './directory.ts'
import { KeyLimits } from './limits.ts'
import { createKeyMetrics } from './key-metrics.ts'
import { RecentRequests } from './recent.ts'
import { addEnforcement } from './enforce.ts'
import { addClientKeyRoutes } from './routes.ts'
import { addModelRoutes } from './routes-models.ts'
import { hashPlainKeys } from './hash-keys.ts'
import { keepSpend } from './keep-spend.ts'

/**
 * `client-keys`: client keys with a name, an owner and rules (models, rpm, tpm, a budget in USD,
 * expiry), enforced for the whole fleet when storage is Redis. The spec's `api-keys` stay as they
 * are: keys without rules.
 */
export default defineProxyPlugin({
  name: 'client-keys',
  after: ['management', 'metrics'],
  configSchema: clientKeysConfigSchema,
  async setup(kernel) {
    let source = clientKeysOf(kernel.config)
    let directory = new KeyDirectory(source)
    const limits = new KeyLimits(kernel.fleet, {
      down: error => kernel.logger.warn(`client-key limits: the shared store is away (${(error as Error).message}); counting per instance until it returns`),
      up: written => kernel.logger.info(`client-key limits: the shared store is back; ${written} locally counted item(s) written there, fleet-wide limits again`),
    })
    const metrics = createKeyMetrics(kernel.services.metricsRegistry, () => limits.localSince !== undefined)
    const recent = new RecentRequests()
    const current = () => {
      const entries = clientKeysOf(kernel.config)
      if (entries !== source) {
        source = entries
        directory = new KeyDirectory(entries)
        directory.onRefusal = (name, reason) => metrics.rejections.inc([name, reason])
      }
      return directory
    }
    directory.onRefusal = (name, reason) => metrics.rejections.inc([name, reason])
    kernel.services.clientKeys = {
      configured: () => current().configured(),
      match: sent => current().match(sent),
      refusal: key => current().refusal(key),
      nameOf: key => current().nameOf(key),
      allowsModel: (key, model) => current().allowsModel(key, model),
    }
    ;(kernel.services.readinessDetails ??= new Map()).set('client-keys', () => limits.localSince === undefined ? undefined
      : `client-key limits counted per instance since ${new Date(limits.localSince).toISOString()} (${limits.unreconciled} item(s) to write back); reconciled when the shared store returns`)

    await hashPlainKeys(kernel)
    // Not awaited: the rewrite queues behind the change being applied now.
    kernel.hooks.hook('config-reload', () => { void hashPlainKeys(kernel).catch(error => kernel.logger.warn(`client-keys: could not hash plain keys: ${(error as Error).message}`)) })

    const offUp = kernel.fleet.onUp(() => { void limits.reconcile() })
    // A reconnect the fleet did not announce (or a write that failed once) is retried too.
    const retry = setInterval(() => { if (limits.unreconciled && kernel.fleet.health().up) void limits.reconcile() }, 5000)
    retry.unref()
    const stopKeeping = await keepSpend(kernel, limits)
    kernel.hooks.hook('close', async () => {
      offUp()
      clearInterval(retry)
      await stopKeeping()
    })

    addEnforcement(kernel, { directory: current, limits, metrics, recent })
    const guard = kernel.services.managementGuard
    if (guard) {
      addClientKeyRoutes(kernel, guard, { directory: current, limits, recent })
      addModelRoutes(kernel, guard)
    }
  },
})
