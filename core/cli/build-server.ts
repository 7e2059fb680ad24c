import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { basename, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { UsageError } from './usage-error.ts'
import { serverNodeFlags } from './heap-flags.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const sources = ['core', 'plugins', 'providers']
/** Tests, fixtures and benchmarks stay behind: a server folder carries what runs. */
/** The presets `proxy build --preset` knows: the folders of plugins/presets/. */
export function presetNames(): string[] {
  const dir = join(root, 'plugins', 'presets')
  return readdirSync(dir, { withFileTypes: true }).filter(entry => entry.isDirectory()).map(entry => entry.name).sort()
}

const keep = (path: string) => !/\.test\.ts$|[/\\]fixtures([/\\]|$)/.test(path)

/** The runtime dependency tree, as npm resolved it (no dev dependencies). */
function runtimePackages(): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  return out.split('\n').map(line => line.trim()).filter(line => line && line !== root.replace(/\/$/, '') && line.includes('node_modules'))
}

/**
 * `proxy build --preset <name> --out <dir>`: a folder that starts with `node <dir>/server.mjs` — the
 * code (TypeScript, run through jiti as in development), the preset as the base layer, an empty
 * project YAML on top, and only the runtime dependencies.
 */
export async function buildServer(preset: string, outDir: string): Promise<string> {
  const presetDir = join(root, 'plugins', 'presets', preset)
  if (!/^[\w-]+$/.test(preset) || !existsSync(presetDir)) throw new UsageError(`unknown preset "${preset}"; presets: ${presetNames().join(', ')}`)
  const out = resolve(outDir)
  const app = join(out, 'app')
  mkdirSync(app, { recursive: true })
  for (const folder of sources) cpSync(join(root, folder), join(app, folder), { recursive: true, filter: keep })
  // The control panel ships as its built page only (panel/dist); build it first when it never was.
  const panelPage = join(root, 'panel', 'dist', 'management.html')
  if (!existsSync(panelPage)) await (await import(join(root, 'panel', 'build.mjs')) as { buildPanel: () => Promise<unknown> }).buildPanel()
  cpSync(join(root, 'panel', 'dist'), join(app, 'panel', 'dist'), { recursive: true })
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, type: 'module', private: true, dependencies: pkg.dependencies }, null, 2)}\n`)
  for (const path of runtimePackages()) cpSync(path, join(app, relative(root, path)), { recursive: true, dereference: true })
  writeFileSync(join(out, 'proxy.config.mjs'), `// Built from preset ${preset}: the preset is the base layer; config.yaml is yours.\nexport default { extends: ['./app/plugins/presets/${preset}'], config: './config.yaml', storage: { driver: 'fs', base: './data' } }\n`)
  if (!existsSync(join(out, 'config.yaml'))) {
    writeFileSync(join(out, 'config.yaml'), `# Your settings, merged over the ${preset} preset. Add api-keys and providers here.\nport: 8317\napi-keys: []\n`)
  }
  const start = `node ${serverNodeFlags.join(' ')} server.mjs`
  writeFileSync(join(out, 'server.mjs'), `// Start: ${start} [--port N] [--config file.yaml]\nimport { fileURLToPath } from 'node:url'\nprocess.chdir(fileURLToPath(new URL('.', import.meta.url)))\nprocess.argv.splice(2, 0, 'start')\nawait import('./app/core/cli/bin.mjs')\n`)
  writeFileSync(join(out, 'package.json'), `${JSON.stringify({ private: true, type: 'module', scripts: { start } }, null, 2)}\n`)
  writeFileSync(join(out, 'README.md'), `# ${basename(out)}\n\nA model proxy built from the \`${preset}\` preset. Edit \`config.yaml\`, then run \`${start}\` (or \`npm start\`).\n`)
  return out
}
