import { existsSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

/** Where the built page lives: `panel/dist/management.html` next to `plugins/` (also in a `proxy build` folder). */
export const pagePath = fileURLToPath(new URL('../../panel/dist/management.html', import.meta.url))
const buildScript = fileURLToPath(new URL('../../panel/build.mjs', import.meta.url))

/** esbuild is a dev dependency: a checkout has it, a built server folder does not. */
function canBuild(): boolean {
  if (!existsSync(buildScript)) return false
  try {
    createRequire(buildScript).resolve('esbuild')
    return true
  } catch {
    return false
  }
}

export interface PanelPage { html(): Promise<string | undefined> }

/**
 * The page, read once per change of the file. When it was never built (a fresh checkout before
 * `npm run build:panel`, or `proxy dev`), it is built on first request; one build at a time.
 */
export function createPanelPage(onBuild: (message: string) => void): PanelPage {
  let cached: { mtime: number; html: string } | undefined
  let building: Promise<void> | undefined
  return {
    async html() {
      if (!existsSync(pagePath) && canBuild()) {
        building ??= (async () => {
          const { buildPanel } = await import(buildScript) as { buildPanel: () => Promise<{ path: string; bytes: number }> }
          const { path, bytes } = await buildPanel()
          onBuild(`control panel built: ${path} (${Math.round(bytes / 1024)} KB)`)
        })().finally(() => { building = undefined })
        await building
      }
      if (!existsSync(pagePath)) return undefined
      const mtime = statSync(pagePath).mtimeMs
      if (cached?.mtime !== mtime) cached = { mtime, html: readFileSync(pagePath, 'utf8') }
      return cached.html
    },
  }
}
