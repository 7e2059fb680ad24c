import type { PluginSpec } from '../plugin-host/plugin.ts'
import type { StorageOptions } from '../storage/storage.ts'

/** `proxy.config.ts`: the code side of a setup (plugins, storage), pointing at the user's YAML. */
export interface ProxyProjectConfig {
  /** YAML config file, relative to the proxy.config.ts that names it. */
  config?: string
  /** Extra plugins: module paths (relative to proxy.config.ts) or plugin objects. */
  plugins?: PluginSpec[]
  /** Where state lives; relative fs paths resolve from proxy.config.ts. Default: fs under `.data/`. */
  storage?: StorageOptions
  /** false = skip built-in plugins. */
  builtins?: boolean
  /**
   * Layers to build on (c12 `extends`): a preset folder with its own proxy.config and YAML. Its plugins
   * come first and its YAML is the base the project's YAML is merged over.
   */
  extends?: string | string[]
}

export function defineProxyConfig(config: ProxyProjectConfig): ProxyProjectConfig {
  return config
}
