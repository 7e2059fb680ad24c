import type { Storage } from 'unstorage'
import type { PluginSpec } from '../../core/plugin-host/plugin.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

export interface LoggedProxy extends TestProxy { lines: string[] }

/** A real proxy on a random loopback port whose log lines the test reads (`lines`). */
export async function startLoggedProxy(raw: Record<string, unknown>, plugins: PluginSpec[] = [], storage?: Storage): Promise<LoggedProxy> {
  const lines: string[] = []
  const write = (...args: unknown[]) => { lines.push(args.map(String).join(' ')) }
  const logger = { info: write, warn: write, debug: () => {}, log: write, success: write, error: write, withTag: () => logger }
  return Object.assign(await startTestProxy(raw, plugins, storage, undefined, logger), { lines })
}
