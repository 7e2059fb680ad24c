import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launch, shoot } from './harness.ts'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'

/**
 * Issue 23's panel page in a real headless Chromium: create a named key (shown once, copyable), use it
 * through the proxy, see its spend against its budget and its recent requests, change its limits —
 * each effect checked through the proxy and its YAML file.
 */
describe.skipIf(!hasChromium)('named keys page in Chromium', () => {
  let upstream: MockUpstream
  /** Its `-cut` model closes the stream after the first text: the key is charged an estimate. */
  let cutting: UsageUpstream
  let managed: ManagedProxy
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []

  beforeAll(async () => {
    upstream = await startMockOpenAI()
    cutting = await startUsageUpstream()
    managed = await startManagedProxy(`host: 127.0.0.1
remote-management: { secret-key: ${managementSecret} }
usage-statistics-enabled: true
compat-provider:
  - { name: mock, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: up }], models: [{ name: mock-gpt, alias: m }, { name: local/llama, alias: self }] }
  - { name: cutting, base-url: '${cutting.url}/v1', api-key-entries: [{ api-key: up }], models: [{ name: up-compat-cut, alias: m-cut }] }
model-prices:
  m: { input: 1000, output: 1000 }
  m-cut: { input: 1, output: 1 }
`)
    browser = await launch()
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
    page = await context.newPage()
    page.setDefaultTimeout(10_000)
    page.on('pageerror', error => pageErrors.push(error.message))
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await managed?.close()
    await upstream?.close()
    await cutting?.close()
  })

  it('creates a key shown once, shows its spend against budget and recent requests, and edits its limits', async () => {
    await page.goto(`${managed.proxy.url}/management.html`)
    await page.fill('#field-management-key', managementSecret)
    await page.click('button[type=submit]')
    await page.click('nav a[href="#/named-keys"]')
    await page.fill('#field-named-key-name', 'ci-runner')
    await page.fill('#field-named-key-owner', 'build team')
    await page.fill('#field-named-key-models', 'm, m-cut')
    await page.fill('#field-named-key-rpm', '5')
    await page.fill('#field-named-key-usd', '1')
    await page.selectOption('#field-named-key-period', 'day')
    await page.click('button:has-text("Create key")')
    const secret = (await page.textContent('[data-new-key="ci-runner"] [data-secret]'))!.trim()
    expect(secret).toMatch(/^sk-proxy-/)
    await page.click('[data-new-key="ci-runner"] button:has-text("Copy")')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    expect(managed.text()).not.toContain(secret)
    expect(managed.yaml()['client-keys'][0]).toMatchObject({ name: 'ci-runner', owner: 'build team', models: ['m', 'm-cut'], rpm: 5, budget: { usd: 1, period: 'day' } })

    // The key works through the proxy, and what it spent appears on the page.
    const answer = await fetch(`${managed.proxy.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(answer.status).toBe(200)
    await page.click('[data-new-key="ci-runner"] button:has-text("Done")')
    expect(await page.isVisible('[data-new-key]')).toBe(false)
    await expect.poll(() => page.textContent('[data-named-key="ci-runner"] [data-spend]'), { timeout: 10_000 }).toMatch(/\$0\.0\d*[1-9]\d* of \$1\.00 this day/)
    await page.click('[data-named-key="ci-runner"] button:has-text("Recent requests")')
    await page.waitForSelector('[data-named-key="ci-runner"] [data-recent] td:has-text("200")')
    expect(await page.textContent('[data-named-key="ci-runner"] [data-recent]')).toContain('m')
    await shoot(page, 'named-keys')

    // A stream cut by its upstream: the key is charged an estimate, and its recent requests say so.
    const cut = await fetch(`${managed.proxy.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm-cut', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(await cut.text()).toContain('error')
    await page.click('[data-named-key="ci-runner"] button:has-text("Recent requests")')
    await page.waitForSelector('[data-named-key="ci-runner"] [data-recent] tr:has-text("m-cut") [data-estimated]')
    expect(await page.locator('[data-named-key="ci-runner"] [data-recent] [data-estimated]').count()).toBe(1)

    await page.click('[data-named-key="ci-runner"] button:has-text("Limits")')
    await page.fill('#field-edit-ci-runner-rpm', '1')
    await page.click('[data-named-key="ci-runner"] button:has-text("Save limits")')
    await expect.poll(() => managed.yaml()['client-keys'][0].rpm).toBe(1)
    await page.waitForSelector('[data-named-key="ci-runner"]:has-text("1 req/min")')
    expect(pageErrors).toEqual([])
  }, 90_000)

  it('the models page lists models without a price and what keys with a budget met there', async () => {
    const created = await fetch(`${managed.proxy.url}/v0/management/client-keys`, {
      method: 'POST', headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'budget-only', budget: { usd: 5, period: 'day' } }),
    })
    const { key } = await created.json() as { key: string }
    const refused = await fetch(`${managed.proxy.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'self', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(refused.status).toBe(403)
    await page.click('nav a[href="#/models"]')
    await page.waitForSelector('[data-unpriced="self"]')
    expect(await page.textContent('[data-unpriced="self"]')).toContain('local/llama')
    await expect.poll(() => page.textContent('[data-unpriced="self"] td[data-label="Refused"]'), { timeout: 10_000 }).toBe('1')
    expect(await page.textContent('[data-unpriced-policy]')).toContain('budget-only')
    expect(await page.isVisible('[data-unpriced="m"]')).toBe(false)
    await shoot(page, 'models-unpriced')
    expect(pageErrors).toEqual([])
  }, 60_000)
})
