import { existsSync } from 'node:fs'
import { defineCommand } from 'citty'
import type { LoadedProject } from '../../config/load.ts'
import { placeholderKey, placeholderKeys } from '../init-config.ts'
import { serveUntilSignal } from '../serve.ts'
import { exitOnUsageError, parsePort, UsageError } from '../usage-error.ts'

const projectFiles = ['ts', 'mts', 'mjs', 'js', 'cjs', 'json'].map(ext => `proxy.config.${ext}`)

/** A server with no config serves nothing, and one with the example's key serves anyone who read the example. */
export function checkStartable(loaded: LoadedProject): void {
  if (!loaded.yamlPath && !loaded.yamlBases.length) {
    throw new UsageError('no config file: run `npx proxy init` to write config.yaml here (a client key, a management key, loopback only), or pass --config <file>')
  }
  const found = placeholderKeys(loaded.config as Parameters<typeof placeholderKeys>[0])
  if (found.length) {
    throw new UsageError(`${loaded.yamlPath ?? 'config'}: ${found.join(', ')} is the example's placeholder key "${placeholderKey}": replace it with a key of your own (\`npx proxy init --config other.yaml\` prints a generated one)`)
  }
}

export default defineCommand({
  meta: { name: 'start', description: 'Start the proxy' },
  args: {
    config: { type: 'string', description: 'YAML config file (default: the one proxy.config.ts names, else ./config.yaml)' },
    project: { type: 'string', description: 'proxy.config.ts to load (default: ./proxy.config.ts)' },
    port: { type: 'string', description: 'Override the port' },
    host: { type: 'string', description: 'Override the host' },
  },
  run: exitOnUsageError(async ({ args }) => {
    // Outside a project (an installed package, a container): ./config.yaml, as `proxy init` writes it.
    const bare = !args.config && !args.project && !projectFiles.some(file => existsSync(file)) && existsSync('config.yaml')
    await serveUntilSignal({
      cwd: process.cwd(),
      yamlPath: bare ? 'config.yaml' : args.config,
      projectFile: args.project,
      port: parsePort(args.port),
      host: args.host,
      check: checkStartable,
    })
  }),
})
