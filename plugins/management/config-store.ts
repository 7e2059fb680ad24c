import { dirname, isAbsolute, resolve } from 'node:path'
import type { Document } from 'yaml'
import type { ProxyKernel } from '../../core/kernel.ts'
import type { ProxyConfig } from '../../core/config/schema.ts'
import { editConfigFile, writeDocument } from '../../core/config/write.ts'
import { expandHome, readYamlConfig } from '../../core/config/load.ts'
import { ManagementError } from './respond.ts'

/** Relative `auth-dir` resolves from the YAML file's folder, as at start-up. */
function resolveAuthDir(config: ProxyConfig, path: string): ProxyConfig {
  const dir = expandHome(config['auth-dir'])
  return { ...config, 'auth-dir': isAbsolute(dir) ? dir : resolve(dirname(path), dir) }
}

/** Every management write: edit the YAML document, validate, write atomically, apply live. */
export async function updateConfig(kernel: ProxyKernel, edit: (doc: Document) => void): Promise<ProxyConfig> {
  const path = kernel.configPath
  if (!path) throw new ManagementError(500, 'failed to save config: the proxy was started without a config file')
  // Plugin keys (partner, metrics, ...) are checked before the write too, not only when applied after it.
  await editConfigFile(path, edit, [...kernel.configSchemas])
  await kernel.applyConfig(resolveAuthDir(await readYamlConfig(path, kernel.configBases), path))
  return kernel.config
}

export async function replaceConfig(kernel: ProxyKernel, doc: Document): Promise<ProxyConfig> {
  const path = kernel.configPath
  if (!path) throw new ManagementError(500, 'failed to save config: the proxy was started without a config file')
  await writeDocument(path, doc, [...kernel.configSchemas])
  await kernel.applyConfig(resolveAuthDir(await readYamlConfig(path, kernel.configBases), path))
  return kernel.config
}
