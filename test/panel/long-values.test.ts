import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { chat, hasChromium, launch, managementKey, shoot, signIn, startPanelWorld, type PanelWorld, openPage } from './harness.ts'

/**
 * Names the panel shows but does not choose (a model, a provider, a named key and its owner) can be one
 * long word: each page must still fit its window at both widths (harness.ts `shoot`), the word broken
 * rather than the page pushed sideways with its buttons out of sight.
 */
describe.skipIf(!hasChromium)('panel: long names fit the window', () => {
  let world: PanelWorld
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []
  const long = 'averyverylongunbrokenmodelname'.repeat(4)
  const api = async (method: string, path: string, body?: unknown) => (await fetch(`${world.proxy.url}/v0/management${path}`, {
    method, headers: { 'x-management-key': managementKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })).status
  const go = async (hash: string, ready: string) => {
    await page.click(`nav a[href="#/${hash}"]`)
    await page.waitForSelector(ready)
  }

  beforeAll(async () => {
    world = await startPanelWorld()
    expect(await api('PATCH', '/compat-provider', { name: 'first', value: { models: [{ name: 'mock-gpt', alias: 'mock-gpt' }, { name: `${long}-upstream`, alias: long }] } })).toBe(200)
    expect(await api('POST', '/client-keys', { name: 'n'.repeat(64), owner: `${'o'.repeat(120)}@example.test`, models: [`${long}*`] })).toBeLessThan(300)
    expect((await chat(world, long)).status).toBe(200)
    browser = await launch()
    page = await openPage(browser, pageErrors)
    await signIn(page, `${world.proxy.url}/management.html`, managementKey)
    await page.waitForSelector('[data-credential="compat:first:0.0"]')
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await world?.close()
  })

  it('dashboard, models, named keys and a provider editor', async () => {
    await shoot(page, 'long-dashboard')
    await go('models', `[data-model="${long}"]`)
    await shoot(page, 'long-models')
    await go('named-keys', '[data-named-key]')
    await shoot(page, 'long-named-keys')
    expect(await api('PATCH', '/compat-provider', { name: 'first', value: { name: long } })).toBe(200)
    await go('providers', `[data-entry="${long}"]`)
    await page.click(`[data-entry="${long}"] button:has-text("Edit")`)
    await page.waitForSelector('form.editor')
    await shoot(page, 'long-provider-editor')
    expect(pageErrors).toEqual([])
  })
})
