import { createProxy, type Proxy } from '../../core/app.ts'
import { listen, type RunningServer } from '../../core/runtime/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import type { PluginSpec } from '../../core/plugin-host/plugin.ts'
import type { Storage } from 'unstorage'

export interface TestProxy { url: string; proxy: Proxy; server: RunningServer; close(): Promise<void> }

/** A real proxy server on a random loopback port, configured from a plain (YAML-shaped) object. */
export async function startTestProxy(rawConfig: Record<string, unknown>, plugins: PluginSpec[] = [], storage?: Storage, configPath?: string, logger: unknown = silentLogger): Promise<TestProxy> {
  const config = validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...rawConfig })
  const proxy = await createProxy({ config, plugins, logger: logger as never, storage, configPath })
  const server = await listen(() => proxy, config, { port: 0, host: '127.0.0.1' })
  return {
    url: server.url,
    proxy,
    server,
    async close() {
      await server.close()
      await proxy.close()
    },
  }
}

const noop = () => {}
/** Logger that keeps test output clean but still surfaces errors. */
export const silentLogger = { info: noop, warn: noop, debug: noop, log: noop, success: noop, error: (...args: unknown[]) => console.error(...args), withTag: () => silentLogger } as never
