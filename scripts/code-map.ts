// The code map of CONTRIBUTING.md and docs/architecture.md, written from the tree: every top-level
// folder, every folder of core/, every plugin and provider family (from its index.ts doc comment) and
// every hook (from core/kernel/hooks.ts). test/docs/code-map.test.ts fails when the committed map is stale.
//   npm run code-map            rewrite the map in both files
//   npm run code-map -- --check exit 1 when a file's map differs from the tree
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** What a top-level folder or a folder of core/ is for: the tree cannot say, so a new folder must be named here. */
export const folderRoles: Record<string, string> = {
  'core/': 'the kernel, one folder per concept; imports nothing from `plugins/` or `providers/`, and no module of it imports itself back (test/architecture)',
  'core/canonical/': 'the canonical request and response every codec maps to, the codec contract, reasoning, token counting, `x-proxy-dropped`',
  'core/cli/': '`proxy start`, `dev`, `build` (citty), run through jiti with no build step',
  'core/config/': 'the zod schema, YAML loading and validation, `proxy.config.ts` (c12), the config file writer',
  'core/data/': 'small data structures any part uses: a map for entries that churn, keys that would reach a prototype, what an HTTP header may be',
  'core/edge/': 'the client edge: client routes, access rules, client keys, forwarded headers, disconnects, responses',
  'core/errors/': 'the proxy\'s error type and the error bodies per path, also for bytes the HTTP parser refused',
  'core/fleet/': 'what instances on one Redis share: instance id, health, messages, leases',
  'core/framing/': 'wire framing: SSE, NDJSON and JSON-array frames, UTF-8 across chunks, a Node stream as a web stream',
  'core/json/': 'the byte-level JSON layer, one entry (`index.ts`): read a client body, write an upstream body, cache statistics',
  'core/kit/': 'the kit, `model-proxy/kit/<group>`: helpers for provider families and feature plugins, grouped by job (thin re-exports)',
  'core/kernel/': 'what a plugin\'s `setup` gets: the kernel, the typed hooks and their bus, per-request state, rate-limited logs',
  'core/models/': 'the model catalog a family declares, the client-name index, model patterns',
  'core/pipeline/': 'one request from the client route to the answer: attempts, retries, same-format passthrough, translation, streams',
  'core/plugin-host/': 'plugins: their definition, loading through jiti into one module graph, their order, the built-in list',
  'core/provider/': 'the provider family contract (`defineProvider`) and its credentials: key lists, credential files, masking',
  'core/runtime/': 'the running process: `startProxy`, the HTTP server and its drain, readiness, the process\'s role',
  'core/storage/': 'state storage: unstorage over the file system or Redis',
  'core/upstream/': 'the upstream transport: sending through undici\'s pools, buffered answers, connect errors, piping a body to the client',
  'plugins/': 'one folder per feature, each a plugin loaded like a third-party one (below)',
  'providers/': 'one folder per provider family: its provider definition, client routes, codec and model catalog (below)',
  'panel/': 'the control panel (preact, `panel/src/`), bundled into one page by `panel/build.mjs`',
  'playground/': '`proxy dev`\'s project: `proxy.config.ts`, `config.yaml` (copied on first start to the git-ignored `config.local.yaml`, which the panel writes), the mock upstreams, an example third-party plugin',
  'examples/': 'a third-party provider family written against the public API only',
  'test/': 'HTTP, CLI, client-lab, conformance, fuzz, fleet, docs and browser tests; `test/bench/` and `test/soak/` are `npm run bench` / `npm run soak`',
  'docs/': 'the manual',
  'deploy/': 'Kubernetes manifests (the Dockerfile and compose.yaml sit at the top level)',
  'scripts/': 'repository chores: this map, the panel screenshots, the lock file',
}
/** Plugin folders that hold no plugin. */
const notPlugins: Record<string, string> = { presets: 'presets a config names with `preset:` (YAML layers and a `proxy.config.ts`), not a plugin' }
/** Top-level folders .gitignore names (`/logs/`, `test-artifacts/`): output, not code. */
const ignoredOf = (root: string) => {
  const text = existsSync(join(root, '.gitignore')) ? readFileSync(join(root, '.gitignore'), 'utf8') : ''
  return new Set(text.split('\n').map(line => line.trim().replace(/^\//, '').replace(/\/$/, '')).filter(line => line && !line.includes('/') && !line.includes('*')))
}

/** A folder's subfolders, sorted, without hidden and ignored ones. */
const dirsOf = (skipped: Set<string>) => (path: string) =>
  readdirSync(path).filter(name => !name.startsWith('.') && !skipped.has(name) && statSync(join(path, name)).isDirectory()).sort()

/** The doc comment that introduces a module: the one before `export default`, else the first at the top level. */
export function moduleSummary(source: string): string | undefined {
  const blocks = [...source.matchAll(/^\/\*\*([\s\S]*?)\*\/\s*\n(.*)/gm)]
  const block = blocks.find(b => b[2]!.startsWith('export default')) ?? blocks[0]
  if (!block) return undefined
  const text = block[1]!.replace(/\n\s*\*\s?/g, ' ').replace(/\s+/g, ' ').trim()
  // The first sentence: up to a period followed by a space, outside backticks.
  const sentence = /^((?:`[^`]*`|[^`])*?\.)(?:\s|$)/.exec(text)
  return (sentence?.[1] ?? text).replace(/\|/g, '\\|')
}

/** Hook names of `ProxyHooks` in core/kernel/hooks.ts with the comment above each. */
export function hooksOf(source: string): Array<{ name: string; doc: string | undefined }> {
  const body = /export interface ProxyHooks \{([\s\S]*?)\n\}/.exec(source)?.[1] ?? ''
  const hooks: Array<{ name: string; doc: string | undefined }> = []
  let doc: string | undefined
  for (const line of body.split('\n')) {
    const comment = /^\s*\/\*\*\s*(.*?)\s*\*\/\s*$/.exec(line)
    const hook = /^\s*'([a-z-]+)':/.exec(line)
    if (comment) doc = comment[1]
    else if (hook) {
      hooks.push({ name: hook[1]!, doc })
      doc = undefined
    }
  }
  return hooks
}

const observersOf = (source: string) => new Set(JSON.parse((/observerHooks = (\[[^\]]*\])/.exec(source)?.[1] ?? '[]').replace(/'/g, '"')) as string[])

/** The map as markdown, or the list of what the tree has that it cannot describe. */
export function codeMap(root: string): { text: string; problems: string[] } {
  const problems: string[] = []
  const dirs = dirsOf(ignoredOf(root))
  const role = (folder: string) => {
    if (folderRoles[folder]) return folderRoles[folder]
    problems.push(`${folder} has no role: add it to folderRoles in scripts/code-map.ts`)
    return ''
  }
  const folders = [...dirs(root).map(name => `${name}/`), ...dirs(join(root, 'core')).map(name => `core/${name}/`)]
    .sort((a, b) => a.localeCompare(b))
  for (const known of Object.keys(folderRoles)) if (!folders.includes(known)) problems.push(`${known} is in folderRoles but not in the tree`)
  const rows = (base: string) => dirs(join(root, base)).map((name) => {
    if (notPlugins[name]) return `| \`${base}/${name}/\` | ${notPlugins[name]} |`
    const index = join(root, base, name, 'index.ts')
    const summary = existsSync(index) ? moduleSummary(readFileSync(index, 'utf8')) : undefined
    if (!summary) problems.push(`${base}/${name}/index.ts has no doc comment saying what it is`)
    return `| \`${base}/${name}/\` | ${summary ?? ''} |`
  })
  const hookSource = readFileSync(join(root, 'core/kernel/hooks.ts'), 'utf8')
  const observers = observersOf(readFileSync(join(root, 'core/kernel/hook-bus.ts'), 'utf8'))
  const hooks = hooksOf(hookSource).map(({ name, doc }) => {
    if (!doc) problems.push(`hook ${name} has no doc comment in core/kernel/hooks.ts`)
    return `| \`${name}\` | ${observers.has(name) ? 'observer' : 'deciding'} | ${doc ?? ''} |`
  })
  const text = [
    '<!-- code-map: written by `npm run code-map` from the tree; test/docs/code-map.test.ts fails when it is stale -->',
    '',
    '| folder | role |',
    '|---|---|',
    ...folders.map(folder => `| \`${folder}\` | ${role(folder)} |`),
    '',
    `Built-in plugins (${dirs(join(root, 'plugins')).length} folders), each a plugin folder with an \`index.ts\`:`,
    '',
    '| plugin | what it does |',
    '|---|---|',
    ...rows('plugins'),
    '',
    'Provider families, one folder each:',
    '',
    '| family | what it is |',
    '|---|---|',
    ...rows('providers'),
    '',
    `Hooks (\`core/kernel/hooks.ts\`, ${hooks.length}); a deciding hook's failure fails the request it runs for, an observer's is logged and ignored ([hooks.md](HOOKS_LINK)):`,
    '',
    '| hook | kind | when |',
    '|---|---|---|',
    ...hooks,
    '',
    '<!-- /code-map -->',
  ].join('\n')
  return { text, problems }
}

export const mapFiles = [{ path: 'CONTRIBUTING.md', hooksLink: 'docs/hooks.md' }, { path: 'docs/architecture.md', hooksLink: 'hooks.md' }]
const block = /<!-- code-map:[\s\S]*?<!-- \/code-map -->/

/** A file's text with its map replaced; undefined when it has no map markers. */
export function withMap(fileText: string, map: string, hooksLink: string): string | undefined {
  if (!block.test(fileText)) return undefined
  return fileText.replace(block, () => map.replace('HOOKS_LINK', hooksLink))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const { text, problems } = codeMap(root)
  if (problems.length) {
    console.error(problems.join('\n'))
    process.exit(1)
  }
  let stale = 0
  for (const { path, hooksLink } of mapFiles) {
    const current = readFileSync(join(root, path), 'utf8')
    const next = withMap(current, text, hooksLink)
    if (next === undefined) {
      console.error(`${path}: no <!-- code-map --> ... <!-- /code-map --> block`)
      process.exit(1)
    }
    if (next === current) continue
    stale++
    if (process.argv.includes('--check')) console.error(`${path}: the code map is stale (npm run code-map)`)
    else writeFileSync(join(root, path), next)
  }
  if (process.argv.includes('--check') && stale) process.exit(1)
  console.log(process.argv.includes('--check') ? 'code map up to date' : `code map written (${stale} file(s) changed)`)
}
