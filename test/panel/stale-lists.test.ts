import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { hasChromium, launch, managementKey, signIn, startPanelWorld, type PanelWorld } from './harness.ts'

/**
 * Two tabs (or two operators) on the same list: the panel saves a new client key or provider by
 * sending the whole list back (there is no append call), so the tab that saves second must not send
 * its old copy, which would drop what the first one added (or bring back a key it removed).
 */
describe.skipIf(!hasChromium)('panel: a list saved from a stale page', () => {
  let world: PanelWorld
  let browser: Browser
  let context: BrowserContext
  const pageErrors: string[] = []
  const api = async (path: string) => (await fetch(`${world.proxy.url}/v0/management${path}`, { headers: { 'x-management-key': managementKey } })).json()
  const tab = async (hash: string, ready: string) => {
    const page = await context.newPage()
    page.setDefaultTimeout(8000)
    page.on('pageerror', error => pageErrors.push(error.message))
    await signIn(page, `${world.proxy.url}/management.html#/${hash}`, managementKey)
    await page.waitForSelector(ready)
    return page
  }

  beforeAll(async () => {
    world = await startPanelWorld()
    browser = await launch()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await world?.close()
  })

  it('client keys: the second tab is refused with a reason, the first tab\'s key stays, and it can add again', async () => {
    const [a, b] = [await tab('keys', '[data-client-key="0"]'), await tab('keys', '[data-client-key="0"]')]
    const add = async (page: Page, key: string) => {
      await page.fill('#field-new-client-key', key)
      await page.click('button:has-text("Add key")')
    }
    await add(a, 'sk-added-in-tab-a')
    await expect.poll(() => a.textContent('[role=status]')).toContain('key added')
    await add(b, 'sk-added-in-tab-b')
    await expect.poll(() => b.textContent('[role=alert]')).toContain('api-keys changed since this page read it')
    expect((await api('/api-keys'))['api-keys']).toEqual(['sk-panel-client-0001', 'sk-added-in-tab-a'])
    // The refused tab now shows the list as it is, and keeps the draft: Add again saves both.
    await b.waitForSelector('[data-client-key="1"]')
    expect(await b.inputValue('#field-new-client-key')).toBe('sk-added-in-tab-b')
    await b.click('button:has-text("Add key")')
    await expect.poll(() => b.textContent('[role=status]')).toContain('key added')
    expect((await api('/api-keys'))['api-keys']).toEqual(['sk-panel-client-0001', 'sk-added-in-tab-a', 'sk-added-in-tab-b'])
  })

  it('providers: a compat provider added in another tab is not dropped by the next add', async () => {
    const [a, b] = [await tab('providers', '[data-entry="first"]'), await tab('providers', '[data-entry="first"]')]
    const fill = async (page: Page, name: string) => {
      await page.click('button:has-text("Add compat provider")')
      await page.fill('#field-compat-name', name)
      await page.fill('#field-compat-base-url', `${world.added.url}/v1`)
      await page.fill('#field-compat-key-0', `sk-upstream-${name}-000000001`)
      await page.fill('[name="compat-model-0-name"]', `model-${name}`)
    }
    await fill(a, 'from-a')
    await fill(b, 'from-b')
    await a.click('form[aria-label="New compat provider"] button[type=submit]')
    await expect.poll(() => a.textContent('[role=status]')).toContain('added to compat-provider')
    await b.click('form[aria-label="New compat provider"] button[type=submit]')
    await expect.poll(() => b.textContent('[role=alert]')).toContain('compat-provider changed since this page read it')
    const names = async () => (await api('/compat-provider'))['compat-provider'].map((entry: { name: string }) => entry.name)
    expect(await names()).toEqual(['first', 'flaky', 'from-a'])
    await b.waitForSelector('[data-entry="from-a"]')
    await b.click('form[aria-label="New compat provider"] button[type=submit]')
    await expect.poll(() => b.textContent('[role=status]')).toContain('added to compat-provider')
    expect(await names()).toEqual(['first', 'flaky', 'from-a', 'from-b'])
  })

  describe('an entry another tab removed', () => {
    const call = (method: string, path: string, body?: unknown) => fetch(`${world.proxy.url}/v0/management${path}`, {
      method, headers: { 'x-management-key': managementKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    })

    it('named keys: saving its limits says it is gone and the list loses it', async () => {
      expect((await call('POST', '/client-keys', { name: 'doomed-key' })).status).toBe(200)
      const page = await tab('named-keys', '[data-named-key="doomed-key"]')
      await page.click('[data-named-key="doomed-key"] button:has-text("Limits")')
      await page.fill('#field-edit-doomed-key-rpm', '7')
      expect((await call('DELETE', '/client-keys/doomed-key')).status).toBe(200)
      await page.click('[data-named-key="doomed-key"] button:has-text("Save limits")')
      await expect.poll(() => page.textContent('[role=alert]')).toContain('key "doomed-key" is gone')
      await page.waitForSelector('[data-named-key="doomed-key"]', { state: 'detached' })
    })

    it('named keys: asking for its recent requests says it is gone and the list loses it', async () => {
      expect((await call('POST', '/client-keys', { name: 'doomed-too' })).status).toBe(200)
      const page = await tab('named-keys', '[data-named-key="doomed-too"]')
      expect((await call('DELETE', '/client-keys/doomed-too')).status).toBe(200)
      await page.click('[data-named-key="doomed-too"] button:has-text("Recent requests")')
      await expect.poll(() => page.textContent('[role=alert]')).toContain('key "doomed-too" is gone')
      await page.waitForSelector('[data-named-key="doomed-too"]', { state: 'detached' })
    })

    it('client keys: replacing it says it is gone and the list loses it', async () => {
      const before: string[] = (await api('/api-keys'))['api-keys']
      expect((await call('PUT', '/api-keys', [...before, 'sk-doomed-client-key-01'])).status).toBe(200)
      const page = await tab('keys', `[data-client-key="${before.length}"]`)
      await page.click(`[data-client-key="${before.length}"] [data-edit]`)
      await page.fill(`#field-client-key-${before.length}`, 'sk-replacement-client-key-01')
      expect((await call('DELETE', '/api-keys?value=sk-doomed-client-key-01')).status).toBe(200)
      await page.click(`[data-client-key="${before.length}"] button:has-text("Save")`)
      await expect.poll(() => page.textContent('[role=alert]')).toContain('is gone')
      await page.waitForSelector(`[data-client-key="${before.length}"]`, { state: 'detached' })
      expect((await api('/api-keys'))['api-keys']).toEqual(before)
    })

    it('providers: saving its edit says it is gone, closes the editor and the list loses it', async () => {
      const list = (await api('/compat-provider'))['compat-provider']
      const doomed = { name: 'doomed', 'base-url': `${world.added.url}/v1`, 'api-key-entries': [{ 'api-key': 'sk-upstream-doomed-00000001' }], models: [{ name: 'doomed-model' }] }
      expect((await call('PUT', '/compat-provider', [...list, doomed])).status).toBe(200)
      const page = await tab('providers', '[data-entry="doomed"]')
      await page.click('[data-entry="doomed"] button:has-text("Edit")')
      await page.fill('#field-compat-prefix', 'gone-')
      expect((await call('DELETE', '/compat-provider?name=doomed')).status).toBe(200)
      await page.click('form[aria-label="Edit doomed"] button[type=submit]')
      await expect.poll(() => page.textContent('[role=alert]')).toContain('compat-provider entry doomed is gone')
      await page.waitForSelector('[data-entry="doomed"]', { state: 'detached' })
      await page.waitForSelector('form[aria-label="Edit doomed"]', { state: 'detached' })
    })
  })

  it('routing settings: a save from a stale view is refused, the fresh values shown, the other edits kept', async () => {
    const [a, b] = [await tab('routing', '#field-request-retry'), await tab('routing', '#field-request-retry')]
    await a.fill('#field-request-retry', '3')
    await a.click('button:has-text("Save settings")')
    await expect.poll(() => a.textContent('[role=status]')).toContain('settings saved')
    // Tab b still shows 0: its 5 would overwrite the 3 it never saw.
    await b.fill('#field-request-retry', '5')
    await b.check('#field-debug')
    await b.click('button:has-text("Save settings")')
    await expect.poll(() => b.textContent('[role=alert]')).toContain('request-retry changed since this page read it')
    const config = () => world.proxy.proxy.kernel.config
    expect(config()['request-retry']).toBe(3)
    expect(config().debug).toBe(false)
    await expect.poll(() => b.inputValue('#field-request-retry')).toBe('3')
    expect(await b.isChecked('#field-debug')).toBe(true)
    // Saved again from the fresh view: the kept edit goes through.
    await b.click('button:has-text("Save settings")')
    await expect.poll(() => b.textContent('[role=status]')).toContain('settings saved')
    expect(config().debug).toBe(true)
    expect(config()['request-retry']).toBe(3)
  })

  it('no script error', () => {
    expect(pageErrors).toEqual([])
  })
})
