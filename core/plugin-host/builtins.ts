import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The built-in families: the folders `providers/builtins.json` names, in registration order (it decides
 * which family a tie goes to). Core knows no family: it reads their list, never their code.
 */
const families: string[] = JSON.parse(readFileSync(`${root}providers/builtins.json`, 'utf8'))

/** Built-in plugins, by path: the kernel imports none of them, it loads them like any third-party plugin. */
export const builtinPlugins: string[] = [
  ...families.map(family => `providers/${family}/index.ts`),
  'plugins/routing/index.ts',
  'plugins/payload-rules/index.ts',
  'plugins/outbound-proxy/index.ts',
  'plugins/passthrough-headers/index.ts',
  'plugins/keepalive/index.ts',
  'plugins/websocket/index.ts',
  'plugins/response-chain/index.ts',
  'plugins/management/index.ts',
  'plugins/route-preview/index.ts',
  'plugins/credential-files/index.ts',
  'plugins/usage/index.ts',
  'plugins/logs/index.ts',
  'plugins/models/index.ts',
  'plugins/panel/index.ts',
  'plugins/metrics/index.ts',
  'plugins/pricing/index.ts',
  'plugins/client-keys/index.ts',
  'plugins/otel/index.ts',
  'plugins/recorder/index.ts',
  'plugins/mcp/index.ts',
  'plugins/access-log/index.ts',
].map(path => `${root}${path}`)
