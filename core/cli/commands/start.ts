import { defineCommand } from 'citty'
import { serveUntilSignal } from '../serve.ts'
import { exitOnUsageError, parsePort } from '../usage-error.ts'

export default defineCommand({
  meta: { name: 'start', description: 'Start the proxy' },
  args: {
    config: { type: 'string', description: 'YAML config file (default: the one proxy.config.ts names)' },
    project: { type: 'string', description: 'proxy.config.ts to load (default: ./proxy.config.ts)' },
    port: { type: 'string', description: 'Override the port' },
    host: { type: 'string', description: 'Override the host' },
  },
  run: exitOnUsageError(async ({ args }) => {
    await serveUntilSignal({
      cwd: process.cwd(),
      yamlPath: args.config,
      projectFile: args.project,
      port: parsePort(args.port),
      host: args.host,
    })
  }),
})
