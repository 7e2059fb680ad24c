import { readFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { homedir } from 'node:os'
import { loadConfig } from 'c12'
import { parse as parseYaml } from 'yaml'
import type { ProxyProjectConfig } from './project.ts'
import type { ProxyConfig } from './schema.ts'
import { ConfigError, validateConfig } from './validate.ts'

export interface LoadedProject {
  project: ProxyProjectConfig
  /** Folder of proxy.config.ts (or cwd when there is none): relative paths resolve from here. */
  root: string
  /** The YAML file in use, if any. */
  yamlPath?: string
  config: ProxyConfig
}

/** Read and validate a YAML config file; every problem becomes a `path: reason` line, never a stack. */
export async function readYamlConfig(path: string): Promise<ProxyConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new ConfigError([`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`])
  }
  let raw: unknown
  try {
    raw = parseYaml(text)
  } catch (error) {
    throw new ConfigError([`${path}: invalid YAML: ${(error as Error).message.split('\n')[0]}`])
  }
  return validateConfig(raw)
}

export const expandHome = (path: string) => path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path

/**
 * c12 loads `proxy.config.ts` from `cwd` (or `projectFile`), then the YAML it names — or the one given
 * with `--config`, which wins. No YAML at all means the spec's defaults.
 */
export async function loadProject(options: { cwd: string; projectFile?: string; yamlPath?: string }): Promise<LoadedProject> {
  const { config: project, configFile } = await loadConfig<ProxyProjectConfig>({
    cwd: options.cwd,
    configFile: options.projectFile ?? 'proxy.config',
    name: 'proxy',
    rcFile: false,
    globalRc: false,
    dotenv: false,
    packageJson: false,
    giget: false,
  })
  const root = configFile && existsSync(configFile) ? dirname(configFile) : options.cwd
  const named = options.yamlPath ? resolve(options.cwd, options.yamlPath) : project.config ? resolve(root, project.config) : undefined
  const yamlPath = named && (options.yamlPath || existsSync(named)) ? named : undefined
  const config = yamlPath ? await readYamlConfig(yamlPath) : validateConfig({})
  const authDir = expandHome(config['auth-dir'])
  config['auth-dir'] = isAbsolute(authDir) ? authDir : resolve(yamlPath ? dirname(yamlPath) : root, authDir)
  return { project: project ?? {}, root, yamlPath, config }
}
