import { AsyncLocalStorage } from 'node:async_hooks'
import type { Document } from 'yaml'
import type { ProxyKernel } from 'model-proxy'
import type { ConfigChange, ConfigFile } from 'model-proxy/kit/config'
import { ManagementError } from './respond.ts'

/** Who is changing the config (`PUT /v0/management/api-keys from 127.0.0.1`), for the log line of the change. */
export const changeOrigin = new AsyncLocalStorage<string>()

function fileOf(kernel: ProxyKernel): ConfigFile {
  if (!kernel.configFile) throw new ManagementError(500, 'failed to save config: the proxy was started without a config file')
  return kernel.configFile
}

const origin = () => changeOrigin.getStore() ?? 'the management API'

/**
 * Every management write: edit the YAML document under the file's write queue, validate, write durably,
 * share with the other instances, apply live. Resolves only once the change is on disk.
 */
export async function updateConfig(kernel: ProxyKernel, edit: (doc: Document) => void): Promise<ConfigChange> {
  return fileOf(kernel).edit(edit, origin())
}

/** `source`: the text the document was parsed from (written as it came but where the document was changed); `ifMatch`: see ConfigFile.replace. */
export async function replaceConfig(kernel: ProxyKernel, doc: Document, source?: string, ifMatch?: string): Promise<ConfigChange> {
  return fileOf(kernel).replace(doc, origin(), source, ifMatch)
}
