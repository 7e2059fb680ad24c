import { defineProxyPlugin } from 'model-proxy'
import type { ClientKeyEntry } from './schema.ts'
import { clientKeysConfigSchema, clientKeysOf, policyOf } from './schema.ts'
import { KeyDirectory } from './directory.ts'
import { KeyLimits } from './limits.ts'
import { createKeyMetrics } from './key-metrics.ts'
import { RecentRequests } from './recent.ts'
import { addEnforcement } from './enforce.ts'
import { addClientKeyRoutes } from './routes.ts'
import { addModelRoutes } from './routes-models.ts'
import { hashPlainKeys } from './hash-keys.ts'
import { keepSpend } from './keep-spend.ts'
import { UnpricedModels } from './unpriced.ts'
import { denialText, modelDenial } from './model-access.ts'
import { addPolicyRoutes } from './routes-policy.ts'
import { addServingCheck } from './serving-check.ts'

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
    const unpriced = new UnpricedModels({
      log: message => kernel.logger.warn(`client-keys: ${message}`),
      count: (model, decision) => metrics.unpriced.inc([model, decision]),
    })
    // A key's models and, with a budget, the model's price: what routing may send its requests to.
    const denial = (entry: ClientKeyEntry | undefined, model: string) => entry && modelDenial(entry, model, kernel.models.get(model) ?? [], kernel.services.prices?.price, policyOf(kernel.config))
    kernel.services.clientKeys = {
      configured: () => current().configured(),
      match: sent => current().match(sent),
      refusal: key => current().refusal(key),
      nameOf: key => current().nameOf(key),
      allowsModel: (key, model) => !denial(current().entryOf(key), model),
      modelRefusal: ({ value, name }, model) => {
        const found = denial(value !== undefined ? current().entryOf(value) : name !== undefined ? current().named(name) : undefined, model)
        return found && denialText(found, model)
      },
      hasName: name => current().named(name) !== undefined,
    }
    ;(kernel.services.readinessDetails ??= new Map()).set('client-keys', () => limits.readinessDetail())

    await hashPlainKeys(kernel)
    // Not awaited: the rewrite queues behind the change being applied now.
    kernel.hooks.hook('config-reload', () => { void hashPlainKeys(kernel).catch(error => kernel.logger.warn(`client-keys: could not hash plain keys: ${(error as Error).message}`)) })

    const offUp = kernel.fleet.onUp(() => { void limits.reconcile() })
    // A reconnect the fleet did not announce (or a write that failed once, or timed out while the fleet stayed up) is retried too.
    const retry = setInterval(() => { if (limits.behind && kernel.fleet.health().up) void limits.reconcile() }, 5000)
    retry.unref()
    const stopKeeping = await keepSpend(kernel, limits)
    kernel.hooks.hook('close', async () => {
      offUp()
      clearInterval(retry)
      await stopKeeping()
    })

    addEnforcement(kernel, { directory: current, limits, metrics, recent, unpriced })
    addServingCheck(kernel, { directory: current, metrics, unpriced })
    const guard = kernel.services.managementGuard
    if (guard) {
      addClientKeyRoutes(kernel, guard, { directory: current, limits, recent })
      addModelRoutes(kernel, guard)
      addPolicyRoutes(kernel, guard, unpriced)
    }
  },
})
