import { defineCommand } from 'citty'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { serveUntilSignal } from '../serve.ts'
import { exitOnUsageError, parsePort } from '../usage-error.ts'

const playground = fileURLToPath(new URL('../../../playground/', import.meta.url))

export default defineCommand({
  meta: { name: 'dev', description: 'Start the playground (mock upstream, no keys needed) and reload on change' },
  args: {
    dir: { type: 'string', description: 'Folder with proxy.config.ts (default: the playground)' },
    port: { type: 'string', description: 'Override the port' },
  },
  run: exitOnUsageError(async ({ args }) => {
    await serveUntilSignal({
      cwd: args.dir ? resolve(args.dir) : playground,
      port: parsePort(args.port),
      watchCode: true,
    })
  }),
})
