import type { ProxyPlugin } from './plugin.ts'
import { ConfigError } from '../config/validate.ts'

/**
 * Set-up order: load order, except that a plugin comes after every plugin it `needs` (and those it wants
 * `after`, when loaded). A missing need or a cycle stops the start with the plugins' names.
 */
export function orderPlugins(plugins: ProxyPlugin[]): ProxyPlugin[] {
  const byName = new Map(plugins.map(plugin => [plugin.name, plugin]))
  const missing = plugins.flatMap(plugin => (plugin.needs ?? []).filter(name => !byName.has(name)).map(name => `plugin "${plugin.name}" needs plugin "${name}", which is not loaded`))
  if (missing.length) throw new ConfigError(missing)
  const ordered: ProxyPlugin[] = []
  const state = new Map<ProxyPlugin, 'visiting' | 'done'>()
  const visit = (plugin: ProxyPlugin, path: string[]) => {
    const seen = state.get(plugin)
    if (seen === 'done') return
    if (seen === 'visiting') throw new ConfigError([`plugins need each other in a cycle: ${[...path, plugin.name].join(' -> ')}`])
    state.set(plugin, 'visiting')
    for (const name of [...plugin.needs ?? [], ...plugin.after ?? []]) {
      const dependency = byName.get(name)
      if (dependency) visit(dependency, [...path, plugin.name])
    }
    state.set(plugin, 'done')
    ordered.push(plugin)
  }
  for (const plugin of plugins) visit(plugin, [])
  return ordered
}
