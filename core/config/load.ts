import { existsSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { loadConfig } from 'c12'
import type { z } from 'zod'
import type { ProxyProjectConfig } from './project.ts'
import type { ProxyConfig } from './schema.ts'
import { validateConfig } from './validate.ts'
import { loadPlugins, type ProxyPlugin } from '../plugin-host/plugin.ts'
import type { ProviderDef } from '../provider/provider.ts'
import { builtinPlugins } from '../plugin-host/builtins.ts'
import { familySchemas } from './family-schemas.ts'
import { expandHome, readYamlConfig } from './yaml-layers.ts'
import { entryAliases, forgetProjectModules, shareHostEntries } from '../plugin-host/module-graph.ts'
import { transform } from '../plugin-host/transpile.mjs'

export interface LoadedProject {
  project: ProxyProjectConfig
  /** Folder of proxy.config.ts (or cwd when there is none): relative paths resolve from here. */
  root: string
  /** The YAML file in use, if any. */
  yamlPath?: string
  /** YAML files of extended layers (presets), lowest first: the user's file is merged over them. */
  yamlBases: string[]
  config: ProxyConfig
  /** Every plugin, built-ins first, loaded: their families and config keys were known when the YAML was validated. */
  plugins: ProxyPlugin[]
}

/** Every family a plugin declares up front (`ProxyPlugin.providers`). */
const declaredProviders = (plugins: readonly ProxyPlugin[]): ProviderDef[] => plugins.flatMap(plugin => plugin.providers ?? [])

/** The schemas plugins add to the base one: each plugin's own keys, then the keys and payload protocols of the families they declare. */
export function pluginSchemas(plugins: readonly ProxyPlugin[]): z.ZodType[] {
  return [...plugins.flatMap(plugin => plugin.configSchema ? [plugin.configSchema] : []), ...familySchemas(declaredProviders(plugins))]
}

/**
 * c12 loads `proxy.config.ts` from `cwd` (or `projectFile`), then the YAML it names — or the one given
 * with `--config`, which wins. No YAML at all means the spec's defaults.
 */
export async function loadProject(options: { cwd: string; projectFile?: string; yamlPath?: string }): Promise<LoadedProject> {
  // proxy.config.ts from any folder imports `model-proxy` (this package, installed there or not), shares
  // the running core with the plugins, and is read afresh on every load (`proxy dev`).
  await shareHostEntries()
  forgetProjectModules()
  const { config: project, configFile, layers } = await loadConfig<ProxyProjectConfig>({
    cwd: options.cwd,
    configFile: options.projectFile ?? 'proxy.config',
    name: 'proxy',
    rcFile: false,
    globalRc: false,
    dotenv: false,
    packageJson: false,
    giget: false,
    jitiOptions: { alias: entryAliases, moduleCache: true, transform },
  })
  const root = configFile && existsSync(configFile) ? dirname(configFile) : options.cwd
  // Extended layers (c12 `extends`, e.g. a preset): their plugins and YAML resolve from their own folder.
  // c12 lists the project's own layer first, then what it extends.
  const extended = (layers ?? []).slice(1).filter(layer => layer.config)
  const layerDir = (layer: { cwd?: string; configFile?: string }) => layer.configFile && isAbsolute(layer.configFile) ? dirname(layer.configFile) : layer.cwd ?? root
  const yamlBases = extended.reverse().filter(layer => layer.config!.config).map(layer => resolve(layerDir(layer), layer.config!.config!))
  const plugins = [
    ...extended.flatMap(layer => (layer.config!.plugins ?? []).map(spec => typeof spec === 'string' && spec.startsWith('.') ? resolve(layerDir(layer), spec) : spec)),
    ...(layers?.[0]?.config?.plugins ?? []),
  ]
  const own = layers?.[0]?.config
  const named = options.yamlPath ? resolve(options.cwd, options.yamlPath) : own?.config ? resolve(root, own.config) : undefined
  const yamlPath = named && (options.yamlPath || existsSync(named)) ? named : undefined
  // Plugins (and the families they declare) load before the YAML is validated: their keys are checked
  // with the rest, in one list of problems, and a bad value stops the start here.
  const loaded = await loadPlugins([...(project.builtins === false ? [] : builtinPlugins), ...plugins], root)
  const schemas = pluginSchemas(loaded)
  const config = yamlPath ? await readYamlConfig(yamlPath, yamlBases, schemas) : yamlBases.length ? await readYamlConfig(yamlBases.at(-1)!, yamlBases.slice(0, -1), schemas) : validateConfig({}, schemas)
  const authDir = expandHome(config['auth-dir'])
  config['auth-dir'] = isAbsolute(authDir) ? authDir : resolve(yamlPath ? dirname(yamlPath) : root, authDir)
  return { project: { ...project, plugins }, root, yamlPath, yamlBases, config, plugins: loaded }
}
