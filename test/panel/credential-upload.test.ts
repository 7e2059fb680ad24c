import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launch, managementKey, signIn, startPanelWorld, type PanelWorld, openPage } from './harness.ts'

/** Several credential files chosen at once, one of them bad: each is uploaded or refused on its own, and the page says which. */
describe.skipIf(!hasChromium)('panel: uploading several credential files', () => {
  let world: PanelWorld
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []

  beforeAll(async () => {
    world = await startPanelWorld()
    browser = await launch()
    page = await openPage(browser, pageErrors)
    await signIn(page, `${world.proxy.url}/management.html#/files`, managementKey)
    await page.waitForSelector('#upload-files', { state: 'attached' })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await world?.close()
  })

  it('a bad file does not stop the others; the message names what was saved and what was not', async () => {
    const file = (name: string, text: string) => {
      writeFileSync(join(world.dir, name), text)
      return join(world.dir, name)
    }
    const good = (email: string) => JSON.stringify({ type: 'beta', access_token: `token-${email}`, email })
    await page.setInputFiles('#upload-files', [
      file('beta-first.json', good('first@example.test')),
      file('broken.json', '{"type": "beta",'),
      file('untyped.json', JSON.stringify({ access_token: 'x' })),
      file('beta-last.json', good('last@example.test')),
    ])
    await expect.poll(() => page.textContent('[role=alert]')).toContain('not uploaded')
    const text = await page.textContent('[role=alert]')
    expect(text).toContain('uploaded beta-first.json, beta-last.json; not uploaded: broken.json is not JSON')
    expect(text).toContain('untyped.json failed (400): invalid credential file')
    for (const name of ['beta-first.json', 'beta-last.json']) expect(existsSync(join(world.authDir, name))).toBe(true)
    for (const name of ['broken.json', 'untyped.json']) expect(existsSync(join(world.authDir, name))).toBe(false)
    await page.waitForSelector('[data-file="beta-last.json"]')
    // Emptied, so choosing the corrected file again is a change the page sees.
    expect(await page.inputValue('#upload-files')).toBe('')
    expect(pageErrors).toEqual([])
  })
})
