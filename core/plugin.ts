import { createJiti } from 'jiti'
import type { z } from 'zod'
import type { ProxyKernel } from './kernel.ts'

export interface ProxyPlugin {
  name: string
  /** Extra config keys this plugin owns, validated with the rest of the YAML. */
  configSchema?: z.ZodType
  setup(proxy: ProxyKernel): void | Promise<void>
}

export function defineProxyPlugin<T extends ProxyPlugin>(plugin: T): T {
  return plugin
}

export type PluginSpec = string | ProxyPlugin

/** Built-in and third-party plugins load the same way: a module path resolved from `cwd`, imported through jiti. */
export async function loadPlugins(specs: PluginSpec[], cwd: string): Promise<ProxyPlugin[]> {
  const jiti = createJiti(`${cwd}/`, { moduleCache: false })
  const plugins: ProxyPlugin[] = []
  for (const spec of specs) {
    if (typeof spec !== 'string') { plugins.push(spec); continue }
    const mod = await jiti.import<ProxyPlugin>(spec, { default: true })
    if (!mod || typeof mod.setup !== 'function') throw new Error(`plugin ${spec} does not export a defineProxyPlugin() default`)
    plugins.push(mod)
  }
  return plugins
}
