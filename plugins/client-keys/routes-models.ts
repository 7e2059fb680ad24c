import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, type Guard, ManagementError } from '../management/api.ts'
import { keyAllowsModel, refusalOf } from './directory.ts'
import { clientKeysOf } from './schema.ts'
import { modelViews } from './models-view.ts'

/**
 * `GET /v0/management/models` (our addition): every model clients may name, with its family, upstream
 * names and catalog limits; `?key=<name>` narrows it to what that named client key may use and says
 * the key's own limits. The spec's `api-keys` have no rules: they may use every model.
 */
export function addModelRoutes(kernel: ProxyKernel, guard: Guard): void {
  addManagementRoute(kernel, guard, 'GET', '/models', (event) => {
    const available = kernel.services.availability
    const all = modelViews(kernel.models, id => kernel.modelInfo.get(id), available && (candidate => available(candidate) === true))
    const entries = clientKeysOf(kernel.config)
    const keys = entries.map(entry => ({
      name: entry.name,
      ...(entry.owner !== undefined && { owner: entry.owner }),
      models: entry.models ?? [],
      ...(entry.rpm !== undefined && { rpm: entry.rpm }),
      ...(entry.tpm !== undefined && { tpm: entry.tpm }),
      ...(entry.budget && { budget: entry.budget }),
      state: refusalOf(entry, Date.now()) ? (entry.disabled ? 'disabled' : 'expired') : 'active',
    }))
    const name = event.url.searchParams.get('key')
    if (name === null || name === '') return { 'api-keys': kernel.config['api-keys'].length, keys, models: all }
    const entry = entries.find(e => e.name === name)
    if (!entry) throw new ManagementError(404, 'item not found', { message: `no client key named ${JSON.stringify(name)}` })
    return { key: name, 'api-keys': kernel.config['api-keys'].length, keys, models: all.filter(model => keyAllowsModel(entry, model.id)) }
  })
}
