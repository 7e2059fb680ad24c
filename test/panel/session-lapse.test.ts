import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launch, managementKey, signIn, startPanelWorld, type PanelWorld, openPage } from './harness.ts'

/**
 * The management key stops working while the operator is typing in a form (the secret was changed):
 * the panel asks for the key again, and what the form held is still there to save once signed in.
 */
describe.skipIf(!hasChromium)('panel: the key refused mid-edit', () => {
  let world: PanelWorld
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []
  const newKey = 'panel-secret-key-2'
  const api = (key: string, method: string, path: string, body?: unknown) => fetch(`${world.proxy.url}/v0/management${path}`, {
    method, headers: { 'x-management-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })

  beforeAll(async () => {
    world = await startPanelWorld()
    browser = await launch()
    page = await openPage(browser, pageErrors)
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await world?.close()
  })

  it('keeps the form across the sign-in prompt, sends nothing meanwhile, and saves after signing in again', async () => {
    expect((await api(managementKey, 'POST', '/client-keys', { name: 'kept-edits' })).status).toBe(200)
    await signIn(page, `${world.proxy.url}/management.html#/named-keys`, managementKey)
    await page.click('[data-named-key="kept-edits"] button:has-text("Limits")')
    await page.fill('#field-edit-kept-edits-owner', 'typed before the key lapsed')
    await page.fill('#field-edit-kept-edits-rpm', '42')

    // The operator's secret is changed on the server (an edit of the file, as the file watcher would find it) while the form is open.
    writeFileSync(world.configPath, readFileSync(world.configPath, 'utf8').replace(/secret-key: .*/, `secret-key: ${newKey}`))
    await world.proxy.proxy.kernel.configFile!.reload('disk')
    await expect.poll(async () => (await api(newKey, 'GET', '/status')).status, { timeout: 8000 }).toBe(200)

    await page.click('[data-named-key="kept-edits"] button:has-text("Save limits")')
    await page.waitForSelector('[data-signin-again]')
    expect(await page.isVisible('[data-named-key="kept-edits"]')).toBe(false)
    // Behind the prompt the page still polls: nothing without a key reaches the server (each would count towards a ban).
    const sent: string[] = []
    page.on('request', request => { if (request.url().includes('/v0/management/')) sent.push(request.url()) })
    await page.waitForTimeout(5500)
    expect(sent).toEqual([])

    await page.fill('#field-management-key', newKey)
    await page.click('[data-signin-again] button[type=submit]')
    await page.waitForSelector('[data-signin-again]', { state: 'detached' })
    expect(await page.inputValue('#field-edit-kept-edits-owner')).toBe('typed before the key lapsed')
    expect(await page.inputValue('#field-edit-kept-edits-rpm')).toBe('42')
    await page.click('[data-named-key="kept-edits"] button:has-text("Save limits")')
    await expect.poll(() => page.textContent('[role=status]')).toContain('limits saved')
    const key = ((await (await api(newKey, 'GET', '/client-keys/kept-edits')).json()) as { owner: string; rpm: number })
    expect(key).toMatchObject({ owner: 'typed before the key lapsed', rpm: 42 })
  })

  it('signing out still drops the page', async () => {
    await page.click('button:has-text("Sign out")')
    await page.waitForSelector('#field-management-key')
    expect(await page.$('[data-named-key]')).toBeNull()
    expect(await page.evaluate(() => ({ ...sessionStorage }))).toEqual({})
  })

  it('no script error', () => {
    expect(pageErrors).toEqual([])
  })
})
