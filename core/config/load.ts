import { readFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { homedir } from 'node:os'
import { loadConfig } from 'c12'
import { parse as parseYaml } from 'yaml'
import type { z } from 'zod'
import type { ProxyProjectConfig } from './project.ts'
import type { ProxyConfig } from './schema.ts'
import { ConfigError, unknownTopLevelKeys, validateConfig } from './validate.ts'
import { loadPlugins, type ProxyPlugin } from '../plugin.ts'
import { builtinPlugins } from '../builtins.ts'
import { declaredProviders, familySchemas } from './family-schemas.ts'
import { entryAliases, forgetProjectModules, shareHostEntries } from '../module-graph.ts'

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

/** Read a YAML file's data (not yet validated). */
export async function readYamlData(path: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new ConfigError([`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`])
  }
  try {
    return parseYaml(text)
  } catch (error) {
    throw new ConfigError([`${path}: invalid YAML: ${(error as Error).message.split('\n')[0]}`])
  }
}

/**
 * Deep merge for YAML layers: objects merge, anything else (lists included) is replaced by the upper
 * layer. A `__proto__` key (YAML makes it an own key) is not merged: assigning it would swap the merged
 * object's prototype, and the schema would then read its inherited keys as settings.
 */
export function mergeLayers(base: unknown, upper: unknown): unknown {
  if (!base || typeof base !== 'object' || Array.isArray(base) || !upper || typeof upper !== 'object' || Array.isArray(upper)) return upper ?? base
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(base)) if (key !== '__proto__') out[key] = value
  for (const [key, value] of Object.entries(upper)) if (key !== '__proto__') out[key] = mergeLayers(Object.hasOwn(out, key) ? out[key] : undefined, value)
  return out
}

/** Read and validate a YAML config file; every problem becomes a `path: reason` line, never a stack. */
export async function readYamlConfig(path: string, bases: string[] = [], schemas: z.ZodType[] = []): Promise<ProxyConfig> {
  let data: unknown = {}
  for (const base of bases) data = mergeLayers(data, await readYamlData(base))
  const merged = mergeLayers(data, await readYamlData(path))
  // Start-up knows every plugin's keys: a top-level key none of them has is a typo, refused with its name.
  const unknown = schemas.length ? unknownTopLevelKeys(merged, schemas) : []
  if (unknown.length) throw new ConfigError(unknown)
  return validateConfig(merged, schemas)
}

/** The schemas plugins add to the base one: each plugin's own keys, then the keys and payload protocols of the families they declare. */
export function pluginSchemas(plugins: readonly ProxyPlugin[]): z.ZodType[] {
  return [...plugins.flatMap(plugin => plugin.configSchema ? [plugin.configSchema] : []), ...familySchemas(declaredProviders(plugins))]
}

export const expandHome = (path: string) => path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path

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
    jitiOptions: { alias: entryAliases, moduleCache: true },
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
