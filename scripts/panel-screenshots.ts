// The control panel's screenshots in docs/, taken from the playground in Chromium: nothing drawn by hand.
//   npm run screenshots          (scripts/screenshots.mjs; needs /usr/bin/chromium: apt-get install -y chromium)
// It starts the playground on a random port with its files in a temporary folder, signs in, presses
// "Try it" so every page has traffic to show, and writes docs/panel-<page>-<width>.png.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hasChromium, chromiumPath } from '../test/panel/harness.ts'
import { playgroundAdminKey, startPlayground } from '../test/panel/playground-world.ts'

const docs = fileURLToPath(new URL('../docs/', import.meta.url))

/** The pages the manual shows, at desktop width; the dashboard at phone width too. */
export const shots: Array<{ page: string; width: number }> = [
  { page: 'dashboard', width: 1280 },
  { page: 'dashboard', width: 390 },
  { page: 'providers', width: 1280 },
  { page: 'usage', width: 1280 },
  { page: 'requests', width: 1280 },
]

export const shotFile = (page: string, width: number) => `panel-${page}-${width}.png`

export async function takeScreenshots(): Promise<void> {
  if (!hasChromium) throw new Error(`${chromiumPath} is not installed (apt-get install -y chromium)`)
  const world = await startPlayground()
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(`${world.proxy.url}/management.html`)
    await page.fill('#field-management-key', playgroundAdminKey)
    await page.click('button[type=submit]')
    await page.click('[data-try-it]')
    await page.waitForSelector('[data-try-result]:has-text("answered")', { timeout: 30_000 })
    for (const { page: id, width } of shots) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await page.click(`nav a[href="#/${id}"]`)
      await page.waitForSelector('main h1')
      // The page's first answers (it polls; a fixed wait past the first poll is enough).
      await page.waitForTimeout(1500)
      const path = join(docs, shotFile(id, width))
      await page.screenshot({ path, fullPage: width !== 390 })
      console.log(`wrote ${path}`)
    }
  } finally {
    await browser.close()
    await world.close()
  }
}

