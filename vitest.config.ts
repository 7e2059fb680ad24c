import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vitest/config'
import { sdkPackages } from './test/clients/lab/clients.ts'

const root = fileURLToPath(new URL('.', import.meta.url))

/** Set by `npm run clients:latest`: a folder holding the newest release of every client. */
const clientsDir = process.env.CLIENTS_DIR

/** The SDKs the client lab imports, resolved from that folder instead of this repo's node_modules. */
function clientLab(dir: string): Plugin {
  const imported = new RegExp(`^(${sdkPackages.map(name => name.replace(/[/.]/g, '\\$&')).join('|')})(/|$)`)
  return {
    name: 'client-lab',
    enforce: 'pre',
    resolveId(source, importer, options) {
      if (!imported.test(source) || importer?.startsWith(dir)) return null
      return this.resolve(source, join(dir, 'package.json'), { ...options, skipSelf: true })
    },
  }
}

export default defineConfig({
  plugins: clientsDir ? [clientLab(clientsDir)] : [],
  // Built-in plugins import the package's own entries, as third-party plugins do.
  resolve: { alias: [{ find: /^model-proxy\/kit\/([a-z-]+)$/, replacement: join(root, 'core/kit/$1.ts') }, { find: /^model-proxy$/, replacement: join(root, 'core/index.ts') }] },
  test: {
    include: clientsDir ? ['test/clients/**/*.test.ts'] : ['{core,plugins,providers,playground,test}/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two files at a time, also on 2-core machines (vitest's default there is one): most files wait on
    // child processes, sockets and timers, not CPU. The whole suite took 707 s serial, 361 s with two.
    maxWorkers: 2,
    // Concurrent tests per file: the client lab's agents each take seconds of CPU to start (2-core CI).
    maxConcurrency: 3,
  },
})
