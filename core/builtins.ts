import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Built-in plugins, by path: the kernel imports none of them, it loads them like any third-party plugin. */
export const builtinPlugins: string[] = [
  'providers/compat/index.ts',
  'providers/gamma/index.ts',
  'providers/beta/index.ts',
  'providers/alpha/index.ts',
  'providers/delta/index.ts',
  'plugins/routing/index.ts',
  'plugins/payload-rules/index.ts',
  'plugins/outbound-proxy/index.ts',
  'plugins/passthrough-headers/index.ts',
  'plugins/keepalive/index.ts',
  'plugins/websocket/index.ts',
  'plugins/management/index.ts',
  'plugins/route-preview/index.ts',
  'plugins/credential-files/index.ts',
  'plugins/usage/index.ts',
  'plugins/logs/index.ts',
  'plugins/models/index.ts',
  'plugins/panel/index.ts',
  'plugins/partner/index.ts',
  'plugins/metrics/index.ts',
].map(path => `${root}${path}`)
