// Builds the control panel into ONE self-contained page: panel/dist/management.html with the script
// and the styles inlined, so the proxy serves it with no other request and nothing from outside.
//   node panel/build.mjs            (npm run build:panel; also the `prepare` script)
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
export const panelDist = join(here, 'dist')
export const panelPage = join(panelDist, 'management.html')

/** `</script` or `</style` inside inlined code would end the element early. */
const inlineSafe = (code, tag) => code.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1')

/** The page around the bundle: no external URL anywhere (an empty data: icon stops the favicon request). */
export function pageHtml(js, css) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>model-proxy · control panel</title>
<link rel="icon" href="data:,">
<style>${inlineSafe(css, 'style')}</style>
</head>
<body>
<div id="app"></div>
<script>${inlineSafe(js, 'script')}</script>
</body>
</html>
`
}

/**
 * zod re-exports every locale (about 250 KB minified) though only English messages are used: the
 * panel bundles the config schema, so the locale index is cut down to `en`.
 */
const englishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /locales\/index\.js$/ }, args => args.importer.includes(`${'node_modules'}/zod/`)
      ? { path: join(dirname(args.importer), args.path.replace(/index\.js$/, 'en.js')) }
      : undefined)
  },
}

/** Bundle panel/src/main.tsx (preact, minified) and write the page; returns its path and size. */
export async function buildPanel({ outFile = panelPage, minify = true } = {}) {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [join(here, 'src', 'main.tsx')],
    bundle: true,
    write: false,
    minify,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: join(here, '.out'),
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [englishOnly],
  })
  const js = result.outputFiles.find(file => file.path.endsWith('.js'))?.text ?? ''
  const css = result.outputFiles.find(file => file.path.endsWith('.css'))?.text ?? ''
  const html = pageHtml(js, css)
  mkdirSync(dirname(outFile), { recursive: true })
  writeFileSync(outFile, html)
  return { path: outFile, bytes: Buffer.byteLength(html) }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { path, bytes } = await buildPanel()
  console.log(`panel: wrote ${path} (${(bytes / 1024).toFixed(0)} KB)`)
}
