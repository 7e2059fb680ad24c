import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { chat, clientKey, hasChromium, launch, managementKey, shoot, startPanelWorld, chromiumPath, type PanelWorld } from './harness.ts'

if (!hasChromium) console.warn(`[panel] skipping the browser tests: ${chromiumPath} is not installed (apt-get install -y chromium)`)

/**
 * The control panel in a real headless Chromium against a running proxy: every page, driven as an
 * operator would, with the effect checked through the proxy itself (requests reach the upstream,
 * files appear, the YAML changes) rather than only on screen.
 */
describe.skipIf(!hasChromium)('control panel in Chromium', () => {
  let world: PanelWorld
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const outside: string[] = []
  const pageErrors: string[] = []
  const go = async (hash: string) => {
    await page.click(`nav a[href="#/${hash}"]`)
    await page.waitForFunction(h => location.hash === `#/${h}`, hash)
  }

  beforeAll(async () => {
    world = await startPanelWorld()
    browser = await launch()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    page = await context.newPage()
    // Failures name the selector that did not appear, well before the test's own timeout.
    page.setDefaultTimeout(8000)
    page.on('pageerror', error => pageErrors.push(error.message))
    context.on('request', (request) => {
      const url = request.url()
      // Only the proxy itself (and the mock OAuth page a sign-in opens on purpose) may be contacted.
      if (!url.startsWith(world.proxy.url) && !url.startsWith(world.oauth.url) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url)
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await world?.close()
  })

  it('a wrong key shows an error and keeps the operator on the sign-in page', async () => {
    await page.goto(`${world.proxy.url}/management.html`)
    await page.fill('#field-management-key', 'not-the-key')
    await page.click('button[type=submit]')
    await expect.poll(() => page.textContent('[role=alert]')).toContain('invalid management key')
    expect(await page.isVisible('nav')).toBe(false)
    await shoot(page, 'signin-error')
  })

  it('signs in; the dashboard shows the version, live numbers and every credential with its state', async () => {
    await page.fill('#field-management-key', managementKey)
    await page.click('button[type=submit]')
    await page.waitForSelector('[data-credential="compat:first:0.0"]')
    expect(page.url()).not.toContain(managementKey)
    expect(await page.evaluate(() => Object.values(sessionStorage))).toContain(managementKey)
    expect(await page.textContent('[data-stat=version]')).toContain(JSON.parse(readFileSync('package.json', 'utf8')).version)
    for (const id of ['compat:first:0.0', 'compat:flaky:1.0', 'beta:0']) expect(await page.getAttribute(`[data-credential="${id}"]`, 'data-state')).toBe('ready')
    // A quota answer puts the flaky credential in cooldown: the dashboard shows it with a live countdown.
    expect((await chat(world, 'flaky-model')).status).toBe(429)
    expect((await chat(world, 'mock-gpt')).status).toBe(200)
    await page.waitForSelector('[data-credential="compat:flaky:1.0"][data-state=cooldown] .countdown')
    const first = await page.textContent('[data-credential="compat:flaky:1.0"] .countdown')
    expect(first).toMatch(/^[45]m \d\ds left$/)
    await expect.poll(() => page.textContent('[data-credential="compat:flaky:1.0"] .countdown'), { timeout: 5000 }).not.toBe(first)
    await expect.poll(() => page.textContent('[data-stat=rpm] .stat-value')).toBe('2')
    expect(await page.textContent('[data-stat=error-rate] .stat-value')).toBe('50%')
    await shoot(page, 'dashboard')
    await page.click('[data-credential="compat:flaky:1.0"] button:has-text("Reset cooldown")')
    await page.waitForSelector('[data-credential="compat:flaky:1.0"][data-state=ready]')
  })

  it('adds a compat provider in the UI, and a request through the proxy reaches it', async () => {
    await go('providers')
    await page.click('button:has-text("Add compat provider")')
    await page.fill('#field-compat-name', 'added')
    await page.fill('#field-compat-base-url', `${world.added.url}/v1`)
    await page.fill('#field-compat-key-0', 'sk-upstream-added-0000000003')
    await page.fill('[name="compat-model-0-name"]', 'mock-gpt')
    await page.fill('[name="compat-model-0-alias"]', 'added-model')
    await page.click('form[aria-label="New compat provider"] button[type=submit]')
    await expect.poll(() => page.textContent('[role=status]')).toContain('added to compat-provider')
    const answer = await chat(world, 'added-model')
    expect(answer.status).toBe(200)
    expect((await answer.json()).model).toBe('added-model')
    expect(world.added.requests.filter(r => r.url === '/v1/chat/completions')).toHaveLength(1)
    expect(world.added.requests[0]!.headers.authorization).toBe('Bearer sk-upstream-added-0000000003')
    expect(readFileSync(world.configPath, 'utf8')).toContain('# panel test config')
    // One click tests the provider through the proxy's api-call with the stored key.
    await page.click('[data-entry="added"] button:has-text("Test")')
    await expect.poll(() => page.textContent('[data-test-result="compat:added:2.0"]')).toContain('OK: upstream answered 200')
    await shoot(page, 'providers')
    // A bad value is refused by the server with the field named, shown next to the form.
    await page.click('button:has-text("Add beta key")')
    await page.fill('#field-api-key', 'beta-key-2')
    await page.fill('#field-priority', 'high')
    await page.click('form[aria-label="New beta key"] button[type=submit]')
    await expect.poll(() => page.textContent('[role=alert]')).toContain('beta-api-key[1].priority')
    await page.click('form[aria-label="New beta key"] button:has-text("Cancel")')
  })

  it('the usage charts change after requests; export and import work', async () => {
    await go('usage')
    await page.waitForSelector('[data-chart=hour] rect.bar', { state: 'attached' })
    const lastBar = async () => Number(await page.$$eval('[data-chart=hour] rect.bar', bars => bars.at(-1)!.getAttribute('data-value')))
    const before = await lastBar()
    expect(before).toBeGreaterThanOrEqual(3)
    const height = () => page.$$eval('[data-chart=hour] rect.bar', bars => Number(bars.at(-1)!.getAttribute('height')))
    const heightBefore = await height()
    for (let i = 0; i < 3; i++) expect((await chat(world, 'added-model')).status).toBe(200)
    await page.click('button:has-text("Refresh")')
    await expect.poll(lastBar).toBe(before + 3)
    expect(await page.$eval('[data-chart=model] rect.bar[data-key="added-model"]', el => el.getAttribute('data-value'))).toBe('4')
    expect(await page.textContent('[data-stat=usage-requests] .stat-value')).toBe(String(before + 3))
    // The drawn bar grew too (the chart is scaled to its peak, which this hour is).
    expect(await height()).toBeGreaterThanOrEqual(heightBefore)
    expect(await page.$$eval('[data-chart=hour] text.value', texts => texts.at(-1)!.textContent)).toBe(String(before + 3))
    await shoot(page, 'usage')
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Export")')])
    const exported = join(world.dir, 'usage-export.json')
    await download.saveAs(exported)
    const records = JSON.parse(readFileSync(exported, 'utf8')).records
    expect(records).toHaveLength(before + 3)
    await page.setInputFiles('#usage-import', exported)
    await expect.poll(() => page.textContent('[role=status]')).toContain(`0 added, ${before + 3} skipped`)
  })

  it('client keys: a key added in the panel lets a client in', async () => {
    await go('keys')
    expect((await chat(world, 'mock-gpt', 'sk-added-from-panel')).status).toBe(401)
    await page.fill('#field-new-client-key', 'sk-added-from-panel')
    await page.click('button:has-text("Add key")')
    await expect.poll(() => page.textContent('[role=status]')).toContain('key added')
    expect((await chat(world, 'mock-gpt', 'sk-added-from-panel')).status).toBe(200)
    expect((await chat(world, 'mock-gpt', clientKey)).status).toBe(200)
    await shoot(page, 'client-keys')
  })

  it('routing and quota settings are saved through their endpoints', async () => {
    await go('routing')
    await page.selectOption('#field-strategy', 'fill-first')
    await page.uncheck('#field-switch-preview-model')
    await page.click('button:has-text("Save settings")')
    await expect.poll(() => page.textContent('[role=status]')).toContain('settings saved')
    const config = world.proxy.proxy.kernel.config
    expect(config.routing.strategy).toBe('fill-first')
    expect(config['quota-exceeded']['switch-preview-model']).toBe(false)
    await shoot(page, 'routing')
  })

  it('the routing page lists each credential\'s windows and previews a request\'s route', async () => {
    await go('routing')
    await page.waitForSelector('[data-table=credential-windows] tbody tr')
    // The starting body asks for a model this proxy serves, so the preview shows a route and says so.
    await expect.poll(() => page.inputValue('#preview-body')).toContain('"model"')
    await page.click('button:has-text("Preview")')
    await page.waitForSelector('[data-preview=result]')
    const result = JSON.parse(await page.textContent('[data-preview=result]') ?? '{}')
    expect(result).toMatchObject({ format: 'messages', strategy: expect.any(String) })
    expect(result.candidates.length).toBeGreaterThan(0)
    expect(await page.textContent('[data-preview=explanation]')).toMatch(/candidate\(s\) serve/)
    // A model nobody serves: the answer says why in a sentence.
    await page.fill('#preview-body', JSON.stringify({ model: 'nobody-serves-this', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }))
    await page.click('button:has-text("Preview")')
    await expect.poll(() => page.textContent('[data-preview=explanation]')).toContain('No configured provider serves nobody-serves-this')
    // For a client key: named by its id in the answer, never echoed.
    await page.fill('#preview-key', clientKey)
    await page.click('button:has-text("Preview")')
    await expect.poll(async () => JSON.parse(await page.textContent('[data-preview=result]') ?? '{}')['client-key']).toEqual({ kind: 'plain', id: expect.stringMatching(/^key-[0-9a-f]{10}$/) })
    expect(await page.textContent('[data-preview=result]')).not.toContain(clientKey)
  })

  it('a payload rule added in the editor changes what the upstream receives', async () => {
    await go('payload')
    await page.click('.card:has(h2:text-is("payload.override")) button:has-text("Add rule")')
    await page.fill('[aria-label="Rule 1 model 1 pattern"]', 'added-model')
    await page.fill('[name="override-0-param-0-path"]', 'temperature')
    await page.fill('[name="override-0-param-0-value"]', '0.25')
    await page.click('button:has-text("Save payload rules")')
    await expect.poll(() => page.textContent('[role=status]')).toContain('payload rules saved')
    expect(readFileSync(world.configPath, 'utf8')).toContain('# panel test config')
    const seen = world.added.requests.length
    expect((await chat(world, 'added-model')).status).toBe(200)
    expect(JSON.parse(world.added.requests[seen]!.body).temperature).toBe(0.25)
    await shoot(page, 'payload')
  })

  it('credential files: upload, block, unblock, delete; a sign-in followed to the end', async () => {
    await go('files')
    const file = join(world.dir, 'beta-upload.json')
    writeFileSync(file, JSON.stringify({ type: 'beta', access_token: 'uploaded-token', email: 'up@example.test' }))
    await page.setInputFiles('#upload-files', file)
    await page.waitForSelector('[data-file="beta-upload.json"][data-state=ready]')
    await page.click('[data-file="beta-upload.json"] button:has-text("Block")')
    await page.waitForSelector('[data-file="beta-upload.json"][data-state=blocked]')
    await page.click('[data-file="beta-upload.json"] button:has-text("Unblock")')
    await page.waitForSelector('[data-file="beta-upload.json"][data-state=ready]')
    // Sign-in: the provider's page opens in a new tab, and the panel follows the status to the end.
    const [popup] = await Promise.all([context.waitForEvent('page'), page.click('button:has-text("Sign in: beta")')])
    await popup.waitForLoadState()
    await expect.poll(() => page.textContent('[data-signin-status]'), { timeout: 10_000 }).toContain('Signed in: saved beta-dev@example.test.json')
    expect(await popup.textContent('h1')).toBe('Signed in')
    await popup.close()
    await page.waitForSelector('[data-file="beta-dev@example.test.json"]')
    await shoot(page, 'credential-files')
    await page.click('[data-file="beta-upload.json"] button:has-text("Delete")')
    await page.click('[data-file="beta-upload.json"] button:has-text("Confirm")')
    // A deleted file's credential stays listed as disabled (never used again), as the server reports it.
    await page.waitForSelector('[data-file="beta-upload.json"][data-state=disabled]')
    expect(existsSync(join(world.authDir, 'beta-upload.json'))).toBe(false)
    expect((await chat(world, 'mock-gpt')).status).toBe(200)
  })

  it('logs: live tail with filter and level; error request logs download', async () => {
    await go('logs')
    await expect.poll(() => page.textContent('.logbox')).toContain('model=added-model')
    expect((await chat(world, 'no-such-model')).status).toBe(404)
    await expect.poll(() => page.textContent('.logbox'), { timeout: 6000 }).toContain('model=no-such-model')
    await page.selectOption('#field-log-level', 'WARN')
    const shown = await page.$$eval('.logbox > div', lines => lines.map(l => l.textContent ?? ''))
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.every(line => line.includes('WARN:'))).toBe(true)
    await page.fill('#field-log-filter', 'no-such-model')
    await expect.poll(() => page.$$eval('.logbox > div', lines => lines.length)).toBe(1)
    // The error request log of that failed request appears by itself (no refresh button to press).
    await page.waitForSelector('[data-error-log]', { timeout: 6000 })
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-error-log] button:has-text("Download")')])
    expect(download.suggestedFilename()).toMatch(/^error-.*\.log$/)
    await shoot(page, 'logs')
  })

  it('config: problems show inline before saving; the server refusal keeps the text; a good edit saves', async () => {
    await go('config')
    await page.waitForSelector('[data-validation=ok]')
    const original = await page.inputValue('#config-yaml')
    expect(original).toContain('# panel test config')
    await page.fill('#config-yaml', original.replace('port: 8317', 'port: 70000'))
    await expect.poll(() => page.textContent('[data-validation=client]')).toContain('line 3: port: must be 1..65535')
    await shoot(page, 'config-invalid')
    await page.click('button:has-text("Save")')
    await expect.poll(() => page.textContent('[data-validation=server]')).toContain('port: must be 1..65535')
    expect(await page.inputValue('#config-yaml')).toContain('port: 70000')
    expect(readFileSync(world.configPath, 'utf8')).toContain('port: 8317')
    await page.fill('#config-yaml', original.replace('request-retry: 0', 'request-retry: 2'))
    await page.waitForSelector('[data-validation=ok]')
    await page.click('button:has-text("Save")')
    await expect.poll(() => page.textContent('[role=status]')).toContain('changed: request-retry')
    expect(world.proxy.proxy.kernel.config['request-retry']).toBe(2)
    await shoot(page, 'config')
  })

  it('works with the keyboard alone: sign in, reach a page from the menu, visible focus', async () => {
    await page.click('button:has-text("Sign out")')
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    await page.reload()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-management-key')
    await page.keyboard.type(managementKey)
    await page.keyboard.press('Enter')
    await page.waitForSelector('nav')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    // Skip link, then the menu: Dashboard, Providers, Models, Chat, Client keys, Named keys, Routing, Payload, MCP servers, Credential files, Usage.
    for (let i = 0; i < 11; i++) await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Usage')
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => location.hash === '#/usage')
    await page.waitForSelector('h1:text-is("Usage")')
  })

  it('nothing was fetched from outside the proxy and no script error happened', () => {
    expect(outside).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
