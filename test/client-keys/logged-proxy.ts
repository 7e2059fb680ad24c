import type { Storage } from 'unstorage'
import { createProxy, type Proxy } from '../../core/app.ts'
import { listen } from '../../core/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import type { PluginSpec } from '../../core/plugin.ts'

export interface LoggedProxy { url: string; proxy: Proxy; lines: string[]; close(): Promise<void> }

/** A real proxy on a random loopback port whose log lines the test reads (`lines`). */
export async function startLoggedProxy(raw: Record<string, unknown>, plugins: PluginSpec[] = [], storage?: Storage): Promise<LoggedProxy> {
  const lines: string[] = []
  const write = (...args: unknown[]) => { lines.push(args.map(String).join(' ')) }
  const logger = { info: write, warn: write, debug: () => {}, log: write, success: write, error: write, withTag: () => logger }
  const config = validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...raw })
  const proxy = await createProxy({ config, plugins, logger: logger as never, storage })
  const server = await listen(() => proxy, config, { port: 0, host: '127.0.0.1' })
  return {
    url: server.url,
    proxy,
    lines,
    async close() {
      await server.close()
      await proxy.close()
    },
  }
}
