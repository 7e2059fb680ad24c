import { createRequire, Module } from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * One module graph per process. Plugins are loaded through jiti, which keeps its modules in Node's
 * `require.cache`; the host (the CLI's jiti, a test runner, an embedder's loader) may hold core in a
 * graph of its own. Plugins reach core only through the package entries (`model-proxy` and the kit's
 * groups), so handing jiti the host's own instances of those makes every plugin share the host's core:
 * one `ProxyError` class for `instanceof`, one keep-alive pool, one write queue per file.
 */

/** The package name plugins import the public API from. */
export const packageName = 'model-proxy'

/** The kit's groups, `model-proxy/kit/<group>` (core/kit/<group>.ts). Named, never imported here: the kit sits on top of core. */
export const kitGroups = ['access', 'body', 'codec', 'config', 'errors', 'fleet', 'guards', 'http', 'models', 'signatures', 'tokens'] as const

const fileOf = (path: string) => fileURLToPath(new URL(path, import.meta.url))
/** Every package entry: its specifier and its file. */
const entries: Array<{ specifier: string; file: string }> = [
  { specifier: packageName, file: fileOf('../index.ts') },
  ...kitGroups.map(group => ({ specifier: `${packageName}/kit/${group}`, file: fileOf(`../kit/${group}.ts`) })),
]
const ownRoot = fileURLToPath(new URL('../..', import.meta.url))
const builtinDirs = ['core/', 'plugins/', 'providers/'].map(dir => ownRoot + dir)
const pluginDirs = builtinDirs.slice(1)

/** `import ... from 'model-proxy'` (or a kit group) works from any folder, installed or not. */
export const entryAliases: Record<string, string> = Object.fromEntries(entries.map(entry => [entry.specifier, entry.file]))

/** The proxy's own code (loaded once per process); everything else is a project's (re-read on each build). */
export const isBuiltinFile = (file: string) => builtinDirs.some(dir => file.startsWith(dir))

const cache = createRequire(import.meta.url).cache

/**
 * Seed `require.cache` with the host's instances of the entries (a new host drops what the old one's
 * plugins held). The entries are imported by file, as plugins are: they sit on top of the whole core,
 * this loader below it, so it names them by path and never by import (no cycle through the index).
 */
export async function shareHostEntries(): Promise<void> {
  const loaded: Array<[string, object]> = await Promise.all(entries.map(async entry => [entry.file, await import(entry.file)] as [string, object]))
  if (loaded.every(([file, exports]) => cache[file]?.exports === exports)) return
  // Another host's core (a test runner's previous file): built-in plugins loaded against it load again.
  for (const file of Object.keys(cache)) if (pluginDirs.some(dir => file.startsWith(dir))) delete cache[file]
  for (const [file, exports] of loaded) {
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
