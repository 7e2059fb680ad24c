import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { chromiumPath, hasChromium, launch, shoot } from './harness.ts'
import { misfits } from './fit.ts'
import { pages } from '../../panel/src/routes.ts'
import { playgroundAdminKey, startPlayground, type PlaygroundWorld } from './playground-world.ts'

if (!hasChromium) console.warn(`[panel] skipping the browser tests: ${chromiumPath} is not installed (apt-get install -y chromium)`)

/**
 * A newcomer on the playground, in a real Chromium: adds a key for the API they hold without knowing
 * the family names, sends traffic from the panel, and finds it on the dashboard, in Usage and in
 * Requests; then every page, at desktop and phone width, fits its window.
 */
describe.skipIf(!hasChromium)('panel: a newcomer on the playground', () => {
  let world: PlaygroundWorld
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const outside: string[] = []
  /** Management calls the panel made that failed: none should (file logging off must not mean a failing poll). */
  const failedCalls: string[] = []
  const go = async (hash: string) => {
    await page.click(`nav a[href="#/${hash}"]`)
    await page.waitForFunction(h => location.hash === `#/${h}`, hash)
  }
  const client = (model: string) => fetch(`${world.proxy.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: 'Bearer sk-playground', 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  })

  beforeAll(async () => {
    world = await startPlayground()
    browser = await launch()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    page = await context.newPage()
    page.setDefaultTimeout(8000)
    page.on('pageerror', error => pageErrors.push(error.message))
    page.on('response', (response) => {
      if (response.url().includes('/v0/management/') && response.status() >= 400) failedCalls.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`)
    })
    context.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith(world.proxy.url) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url)
    })
    await page.goto(`${world.proxy.url}/`)
    // GET / sends the browser to the panel.
    expect(new URL(page.url()).pathname).toBe('/management.html')
    await page.fill('#field-management-key', playgroundAdminKey)
    await page.click('button[type=submit]')
    await page.waitForSelector('nav')
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await world?.close()
  })

  it('adds a key by saying which API it is for, and a client reaches it', async () => {
    await go('providers')
    const answer = await page.textContent('[data-key-kind=beta]')
    expect(answer).toContain('messages API')
    expect(answer).toContain('https://api.anthropic.com')
    expect(await page.textContent('[data-key-kind=compat]')).toContain('chat completions API of any compatible service')
    await page.check('[data-key-kind=beta] input')
    await page.click('form[aria-label="Add a key"] button[type=submit]')
    const form = 'form[aria-label="New beta key"]'
    await page.waitForSelector(form)
    expect(await page.getAttribute(`${form} #field-base-url`, 'placeholder')).toBe('https://api.anthropic.com')
    await page.fill(`${form} #field-api-key`, 'my-messages-key-0001')
    // The playground's messages mock stands in for the vendor.
    await page.fill(`${form} #field-base-url`, 'http://127.0.0.1:8317/mock/beta')
    await page.click(`${form} button:has-text("Add model")`)
    await page.fill(`${form} [name="model-0-name"]`, 'mock-claude')
    await page.fill(`${form} [name="model-0-alias"]`, 'my-claude')
    await page.click(`${form} button[type=submit]`)
    await expect.poll(() => page.textContent('[role=status]')).toContain('added to beta-api-key')
    expect(readFileSync(world.configPath, 'utf8')).toContain('my-messages-key-0001')
    expect((await client('my-claude')).status).toBe(200)
    // The legend says what each family is, once.
    await go('models')
    const legend = await page.textContent('dl.legend [data-legend=gamma]')
    expect(legend).toBe('gammaspeaks responses (/v1/responses); sends to https://api.openai.com/v1')
  })

  it('"try it" sends traffic; the dashboard charts it by outcome, family and credential', async () => {
    await go('dashboard')
    await page.click('[data-try-it]')
    await expect.poll(() => page.textContent('[data-try-result]'), { timeout: 15_000 }).toMatch(/sent \d+ requests .*: \d+ answered/)
    const sent = Number(/sent (\d+)/.exec((await page.textContent('[data-try-result]'))!)![1])
    expect(sent).toBeGreaterThanOrEqual(5)
    // A client mistake: counted apart, not as an error.
    expect((await client('no-such-model')).status).toBe(404)
    await expect.poll(() => page.textContent('[data-total=client]'), { timeout: 10_000 }).toBe('1')
    expect(await page.textContent('[data-stat=error-rate] .stat-value')).toBe('0%')
    for (const family of ['compat', 'beta', 'gamma', 'alpha', 'delta']) {
      expect(Number(await page.textContent(`[data-group=family] [data-row=${family}] [data-cell=requests]`))).toBeGreaterThan(0)
    }
    expect(await page.$$eval('[data-chart=outcomes] rect[data-outcome=ok]', bars => bars.reduce((sum, bar) => sum + Number(bar.getAttribute('data-value')), 0))).toBeGreaterThanOrEqual(sent)
    expect(await page.$$eval('[data-chart=outcomes] rect[data-outcome=client]', bars => bars.length)).toBe(1)
    expect(await page.getAttribute('[data-chart=latency] path[data-line=p95_ms]', 'd')).toMatch(/^M[\d.]+,[\d.]+/)
    expect(await page.$$eval('[data-group=credential] [data-row]', rows => rows.length)).toBeGreaterThanOrEqual(5)
    await shoot(page, 'newcomer-dashboard')
    // Over time for each family, and for each credential.
    await page.selectOption('#field-series-split', 'family')
    for (const family of ['compat', 'beta', 'gamma', 'alpha', 'delta']) await page.waitForSelector(`[data-chart="outcomes:${family}"] rect[data-outcome=ok]`)
    expect(await page.$$eval('[data-chart="outcomes:none"] rect[data-outcome=client]', bars => bars.length)).toBe(1)
    await page.selectOption('#field-series-split', 'credential')
    await page.waitForSelector('[data-chart="latency:alpha:0"] path[data-line=p50_ms]', { state: 'attached' })
    expect(await page.getAttribute('[data-chart="latency:alpha:0"] path[data-line=p50_ms]', 'd')).toMatch(/^M[\d.]+,[\d.]+/)
    await shoot(page, 'newcomer-dashboard-by-credential')
    await page.selectOption('#field-series-split', '')
  })

  it('the same traffic shows in Usage and in Requests', async () => {
    await go('usage')
    await expect.poll(async () => Number((await page.textContent('[data-stat=usage-requests] .stat-value'))!.replace(/,/g, ''))).toBeGreaterThanOrEqual(7)
    expect(await page.textContent('[data-stat=usage-latency] .stat-value')).toMatch(/^\d[\d,]* ms$/)
    await go('requests')
    await expect.poll(() => page.$$eval('[data-request]', rows => rows.length)).toBeGreaterThanOrEqual(7)
    // Turned off, the Requests page offers to turn it on again, and fits a phone.
    const api = (path: string, body: unknown) => fetch(`${world.proxy.url}/v0/management${path}`, { method: 'PUT', headers: { 'x-management-key': playgroundAdminKey, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect((await api('/recorder/mode', { value: 'off' })).status).toBe(200)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.waitForSelector('[data-recorder-off]')
    expect(await misfits(page)).toEqual([])
    await page.click('button:has-text("Record every request")')
    await page.waitForSelector('[data-recorder-off]', { state: 'detached' })
    expect(readFileSync(world.configPath, 'utf8')).toMatch(/recorder:\n\s+mode: all/)
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('the config editor and the route preview use a monospace font; the preview starts with a served model', async () => {
    await go('config')
    await page.waitForSelector('#config-yaml')
    expect(await page.$eval('#config-yaml', el => getComputedStyle(el).fontFamily)).toContain('monospace')
    await go('routing')
    await page.waitForSelector('#preview-body')
    expect(await page.$eval('#preview-body', el => getComputedStyle(el).fontFamily)).toContain('monospace')
    await expect.poll(() => page.inputValue('#preview-body')).toMatch(/"model": "(mock|playground|acme|claude)/)
  })

  it.each([1280, 390])('every page fits a %i px window, selects show their whole text', async (width) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    const found: Record<string, string[]> = {}
    for (const [id] of pages) {
      await go(id)
      await page.waitForSelector('main h1')
      // Let the page's first answers arrive.
      await page.waitForLoadState('networkidle').catch(() => {})
      const wrong = await misfits(page)
      if (wrong.length) found[id] = wrong
    }
    expect(found).toEqual({})
    await page.setViewportSize({ width: 1280, height: 900 })
  }, 120_000)

  it('no script error, no failed management call, nothing outside the proxy contacted', () => {
    expect(pageErrors).toEqual([])
    expect(failedCalls).toEqual([])
    expect(outside).toEqual([])
  })
})
