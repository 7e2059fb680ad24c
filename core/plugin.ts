import { createJiti } from 'jiti'
import type { z } from 'zod'
import type { ProxyKernel } from './kernel.ts'
import type { ProviderDef } from './provider.ts'
import { fileURLToPath } from 'node:url'
import { isAbsolute } from 'node:path'

/** The package name plugins import the public API from, and where that entry lives. */
export const packageName = 'model-proxy'
const publicEntry = fileURLToPath(new URL('./index.ts', import.meta.url))

export interface ProxyPlugin {
  name: string
  /** Extra config keys this plugin owns, validated with the rest of the YAML. */
  configSchema?: z.ZodType
  /**
   * Provider families this plugin brings, registered before its `setup`. Declared here (not only with
   * `kernel.registerProvider`) so their config keys are known before the YAML is validated.
   */
  providers?: ProviderDef<any>[]
  setup?(proxy: ProxyKernel): void | Promise<void>
}

export function defineProxyPlugin<T extends ProxyPlugin>(plugin: T): T {
  return plugin
}

export type PluginSpec = string | ProxyPlugin

const ownRoot = fileURLToPath(new URL('..', import.meta.url))

/**
 * Built-in and third-party plugins load the same way: a module path resolved from `cwd`, imported through
 * jiti. Our own files run without jiti's interop Proxy around every module (each call across modules
 * paid its get trap, ~5-10% of a proxied request's CPU); code from elsewhere keeps jiti's full interop,
 * so any import style of any package works there as it does under Node.
 */
export async function loadPlugins(specs: PluginSpec[], cwd: string): Promise<ProxyPlugin[]> {
  // `import { defineProxyPlugin } from 'model-proxy'` works from any folder, installed or not.
  const options = { moduleCache: false, alias: { [packageName]: publicEntry } }
  const own = createJiti(`${cwd}/`, { ...options, interopDefault: false })
  const foreign = createJiti(`${cwd}/`, options)
  const plugins: ProxyPlugin[] = []
  for (const spec of specs) {
    if (typeof spec !== 'string') { plugins.push(spec); continue }
    const jiti = isAbsolute(spec) && spec.startsWith(ownRoot) && !spec.startsWith(`${ownRoot}playground/`) ? own : foreign
    const mod = await jiti.import<ProxyPlugin>(spec, { default: true })
    if (!mod || (typeof mod.setup !== 'function' && !Array.isArray(mod.providers))) throw new Error(`plugin ${spec} does not export a defineProxyPlugin() default`)
    plugins.push(mod)
  }
  return plugins
}
