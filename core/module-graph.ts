import { createRequire, Module } from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * One module graph per process. Plugins are loaded through jiti, which keeps its modules in Node's
 * `require.cache`; the host (the CLI's jiti, a test runner, an embedder's loader) may hold core in a
 * graph of its own. Plugins reach core only through the two package entries, so handing jiti the host's
 * own instances of those two makes every plugin share the host's core: one `ProxyError` class for
 * `instanceof`, one keep-alive pool, one write queue per file.
 */

/** The package name plugins import the public API from. */
export const packageName = 'model-proxy'

const publicEntry = fileURLToPath(new URL('./index.ts', import.meta.url))
const internalEntry = fileURLToPath(new URL('./internal.ts', import.meta.url))
const ownRoot = fileURLToPath(new URL('..', import.meta.url))
const builtinDirs = ['core/', 'plugins/', 'providers/'].map(dir => ownRoot + dir)
const pluginDirs = builtinDirs.slice(1)

/** `import ... from 'model-proxy'` works from any folder, installed or not (the longer name first). */
export const entryAliases: Record<string, string> = { [`${packageName}/internal`]: internalEntry, [packageName]: publicEntry }

/** The proxy's own code (loaded once per process); everything else is a project's (re-read on each build). */
export const isBuiltinFile = (file: string) => builtinDirs.some(dir => file.startsWith(dir))

const cache = createRequire(import.meta.url).cache

/** Seed `require.cache` with the host's instances of the entries (a new host drops what the old one's plugins held). */
export async function shareHostEntries(): Promise<void> {
  const entries: Array<[string, object]> = [[publicEntry, await import('./index.ts')], [internalEntry, await import('./internal.ts')]]
  if (entries.every(([file, exports]) => cache[file]?.exports === exports)) return
  // Another host's core (a test runner's previous file): built-in plugins loaded against it load again.
  for (const file of Object.keys(cache)) if (pluginDirs.some(dir => file.startsWith(dir))) delete cache[file]
  for (const [file, exports] of entries) {
    const module = new Module(file)
    module.filename = file
    module.exports = exports
    module.loaded = true
    cache[file] = module
  }
}

/** Drop a project's own modules from the cache, so a rebuild (`proxy dev`) reads its plugins afresh. */
export function forgetProjectModules(): void {
  for (const file of Object.keys(cache)) if (!isBuiltinFile(file) && !file.includes('/node_modules/')) delete cache[file]
}
