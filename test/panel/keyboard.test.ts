import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launch, managementKey, signIn, startPanelWorld, type PanelWorld, openPage } from './harness.ts'

/**
 * Keyboard alone, past the sign-in and the menu (browser.test.ts): a control that opens a form or
 * removes a row must leave the focus where the work goes on, not on the page's body (the next Tab
 * would start over from the menu, and a form opened in another section would be out of reach).
 */
describe.skipIf(!hasChromium)('panel: editing with the keyboard', () => {
  let world: PanelWorld
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []
  const focused = () => page.evaluate(() => {
    const el = document.activeElement
    return el?.id || `${el?.tagName.toLowerCase()}:${(el?.textContent ?? '').trim().slice(0, 20)}`
  })
  const press = async (selector: string) => {
    await page.focus(selector)
    await page.keyboard.press('Enter')
  }

  beforeAll(async () => {
    world = await startPanelWorld()
    browser = await launch()
    page = await openPage(browser, pageErrors)
    await signIn(page, `${world.proxy.url}/management.html#/keys`, managementKey)
    await page.waitForSelector('[data-client-key="0"]')
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await world?.close()
  })

  it('client keys: Edit focuses the field, Cancel gives it back to Edit, a removal leaves it in the page', async () => {
    await page.focus('#field-new-client-key')
    await page.keyboard.type('sk-typed-with-keys-01')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-client-key="1"]')
    await press('[data-client-key="1"] button:has-text("Edit")')
    await expect.poll(focused).toBe('field-client-key-1')
    await press('[data-client-key="1"] button:has-text("Cancel")')
    await expect.poll(focused).toBe('button:Edit')
    expect(await page.evaluate(() => document.activeElement?.closest('[data-client-key]')?.getAttribute('data-client-key'))).toBe('1')
    await press('[data-client-key="1"] button:has-text("Remove")')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.$$eval('[data-client-key]', rows => rows.length)).toBe(1)
    await expect.poll(focused).toBe('main')
    // The next Tab is in the page, not back at the menu.
    await page.keyboard.press('Tab')
    expect(await focused()).toBe('field-new-client-key')
  })

  it('providers: the key-kind chooser and Edit put the focus in the form they open', async () => {
    await page.click('nav a[href="#/providers"]')
    await page.waitForSelector('[data-entry="first"]')
    // The beta kind: its form opens in the beta section, far below the chooser.
    await page.check('form.key-kind .choice:has-text("(beta)") input[type=radio]')
    await press('form.key-kind button[type=submit]')
    await expect.poll(focused).toBe('field-api-key')
    expect(await page.getAttribute('form.editor', 'aria-label')).toBe('New beta key')
    await press('form.editor button:has-text("Cancel")')
    await press('[data-entry="first"] button:has-text("Edit")')
    await expect.poll(focused).toBe('field-compat-name')
    expect(await page.inputValue('#field-compat-name')).toBe('first')
    expect(pageErrors).toEqual([])
  })
})
