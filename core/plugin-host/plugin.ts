import { createJiti } from 'jiti'
import type { z } from 'zod'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProviderDef } from '../provider/provider.ts'
import { entryAliases, forgetProjectModules, isBuiltinFile, shareHostEntries } from './module-graph.ts'
import { isAbsolute } from 'node:path'
import { transform } from './transpile.mjs'
import { ConfigError } from '../config/validate.ts'

export interface ProxyPlugin {
  name: string
  /** Extra config keys this plugin owns, validated with the rest of the YAML. */
  configSchema?: z.ZodType
  /**
   * Provider families this plugin brings, registered before its `setup`. Declared here (not only with
   * `kernel.registerProvider`) so their config keys are known before the YAML is validated.
   */
  providers?: ProviderDef<any>[]
  /** Plugins (by name) whose services this one uses: they set up first, and a missing one stops the start with its name. */
  needs?: string[]
  /** Plugins (by name) to set up after when they are loaded (optional services), without requiring them. */
  after?: string[]
  setup?(proxy: ProxyKernel): void | Promise<void>
}

export function defineProxyPlugin<T extends ProxyPlugin>(plugin: T): T {
  return plugin
}

export type PluginSpec = string | ProxyPlugin

/**
 * Built-in and third-party plugins load the same way: a module path resolved from `cwd`, imported through
 * jiti into one module graph (core/plugin-host/module-graph.ts). Built-ins are read once per process; a project's
 * own files are read afresh on every build, so `proxy dev` picks up an edited plugin. Our own files run
 * without jiti's interop Proxy around every module (each call across modules paid its get trap, ~5-10%
 * of a proxied request's CPU); code from elsewhere keeps jiti's full interop, so any import style of
 * any package works there as it does under Node.
 */
export async function loadPlugins(specs: PluginSpec[], cwd: string): Promise<ProxyPlugin[]> {
  await shareHostEntries()
  const options = { moduleCache: true, alias: entryAliases, transform }
  const own = createJiti(`${cwd}/`, { ...options, interopDefault: false })
  const foreign = createJiti(`${cwd}/`, options)
  if (specs.some(spec => typeof spec === 'string' && !(isAbsolute(spec) && isBuiltinFile(spec)))) forgetProjectModules()
  const plugins: ProxyPlugin[] = []
  for (const spec of specs) {
    if (typeof spec !== 'string') { plugins.push(spec); continue }
    const builtin = isAbsolute(spec) && isBuiltinFile(spec)
    let mod: ProxyPlugin | undefined
    try {
      mod = await (builtin ? own : foreign).import<ProxyPlugin>(spec, { default: true })
    } catch (error) {
      // A project's plugin that cannot load is the operator's to fix: which one and why, not the loader's stack.
      if (builtin) throw error
      throw new ConfigError([`plugins: ${spec}: ${loadFailure(error, spec, cwd)}`])
    }
    if (!mod || (typeof mod.setup !== 'function' && !Array.isArray(mod.providers))) throw new ConfigError([`plugins: ${spec} does not export a defineProxyPlugin() default`])
    plugins.push(mod)
  }
  return plugins
}

/** Why a plugin did not load, in a line: not found, or the error's message without the loader's require stack. */
function loadFailure(error: unknown, spec: string, cwd: string): string {
  const { code, message } = error as { code?: string; message?: string }
  const text = String(message ?? error)
  if (code === 'MODULE_NOT_FOUND' && text.includes(`'${spec}'`)) return `not found (from ${cwd})`
  return text.split(/\n\s*Require stack:/)[0]!.replace(/\s+/g, ' ').trim()
}
