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

/** The kit's groups, `model-proxy/kit/<group>` (core/kit/<group>.ts), each loaded by a literal import the bundlers see. */
export const kitGroups = {
  access: () => import('./kit/access.ts'),
  body: () => import('./kit/body.ts'),
  codec: () => import('./kit/codec.ts'),
  config: () => import('./kit/config.ts'),
  errors: () => import('./kit/errors.ts'),
  fleet: () => import('./kit/fleet.ts'),
  guards: () => import('./kit/guards.ts'),
  http: () => import('./kit/http.ts'),
  models: () => import('./kit/models.ts'),
  signatures: () => import('./kit/signatures.ts'),
  tokens: () => import('./kit/tokens.ts'),
} satisfies Record<string, () => Promise<object>>

const fileOf = (path: string) => fileURLToPath(new URL(path, import.meta.url))
/** Every package entry: its specifier, its file, how the host loads it. */
const entries: Array<{ specifier: string; file: string; load: () => Promise<object> }> = [
  { specifier: packageName, file: fileOf('./index.ts'), load: () => import('./index.ts') },
  ...Object.entries(kitGroups).map(([group, load]) => ({ specifier: `${packageName}/kit/${group}`, file: fileOf(`./kit/${group}.ts`), load })),
]
const ownRoot = fileURLToPath(new URL('..', import.meta.url))
const builtinDirs = ['core/', 'plugins/', 'providers/'].map(dir => ownRoot + dir)
const pluginDirs = builtinDirs.slice(1)

/** `import ... from 'model-proxy'` (or a kit group) works from any folder, installed or not. */
export const entryAliases: Record<string, string> = Object.fromEntries(entries.map(entry => [entry.specifier, entry.file]))

/** The proxy's own code (loaded once per process); everything else is a project's (re-read on each build). */
export const isBuiltinFile = (file: string) => builtinDirs.some(dir => file.startsWith(dir))

const cache = createRequire(import.meta.url).cache

/** Seed `require.cache` with the host's instances of the entries (a new host drops what the old one's plugins held). */
export async function shareHostEntries(): Promise<void> {
  const loaded: Array<[string, object]> = await Promise.all(entries.map(async entry => [entry.file, await entry.load()] as [string, object]))
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
