import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { chat, chromiumPath, clientKey, hasChromium, launch, managementKey, shoot, startPanelWorld, type PanelWorld, openPage } from './harness.ts'

if (!hasChromium) console.warn(`[panel] skipping the browser tests: ${chromiumPath} is not installed (apt-get install -y chromium)`)

/**
 * The panel pages of issue 25 in a real Chromium: Models, Chat, per-credential attempts and latency on
 * the dashboard, family names explained, excluded models, and buttons and form cells that stay put.
 */
describe.skipIf(!hasChromium)('panel: models, chat, credential numbers, layout fixes', () => {
  let world: PanelWorld
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []
  const api = (method: string, path: string, body?: unknown) => fetch(`${world.proxy.url}/v0/management${path}`, {
    method, headers: { 'x-management-key': managementKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  const go = async (hash: string) => {
    await page.click(`nav a[href="#/${hash}"]`)
    await page.waitForFunction(h => location.hash === `#/${h}`, hash)
  }
  const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!

  beforeAll(async () => {
    world = await startPanelWorld()
    // A model the beta key lists but excludes: the dashboard must not offer it.
    expect((await api('PATCH', '/beta-api-key', { index: 0, value: { models: [{ name: 'mock-claude' }, { name: 'claude-hidden' }] } })).status).toBe(200)
    // An alias of a model the catalog knows: the Models page shows what it is sent as and its limits.
    expect((await api('PATCH', '/compat-provider', { index: 0, value: { models: [{ name: 'mock-gpt', alias: 'mock-gpt' }, { name: 'gpt-5.1', alias: 'team-gpt' }] } })).status).toBe(200)
    expect((await api('POST', '/client-keys', { name: 'team', owner: 'ana', models: ['mock-*'], rpm: 10, tpm: 20000 })).status).toBeLessThan(300)
    browser = await launch()
    page = await openPage(browser, pageErrors)
    await page.goto(`${world.proxy.url}/management.html`)
    await page.fill('#field-management-key', managementKey)
    await page.click('button[type=submit]')
    await page.waitForSelector('[data-credential="compat:first:0.0"]')
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await world?.close()
  })

  it('dashboard: attempts and latency per credential, excluded models apart, families explained', async () => {
    for (let i = 0; i < 2; i++) expect((await chat(world, 'mock-gpt')).status).toBe(200)
    expect((await chat(world, 'flaky-model')).status).toBe(429)
    await expect.poll(() => page.textContent('[data-credential="compat:first:0.0"] [data-stats=attempts]'), { timeout: 5000 }).toContain('2 ok')
    expect(await page.textContent('[data-credential="compat:first:0.0"] [data-stats=latency]')).toMatch(/\d+ ms/)
    // Every attempt the flaky upstream refused (the quota answer is retried on the preview model) is one failure.
    await expect.poll(() => page.textContent('[data-credential="compat:flaky:1.0"] [data-stats=attempts]'), { timeout: 5000 }).toContain(`0 ok · ${world.flaky.requests.length} failed`)
    const flaky = await page.textContent('[data-credential="compat:flaky:1.0"] [data-stats=attempts]')
    expect(world.flaky.requests.length).toBeGreaterThan(0)
    expect(flaky).toContain('last 429')
    const models = await page.textContent('[data-credential="beta:0"] td.models')
    expect(models).toContain('mock-claude')
    expect(models).not.toMatch(/claude-hidden/)
    expect(await page.textContent('[data-credential="beta:0"] [data-excluded]')).toBe('excluded: claude-*')
    expect(await page.getAttribute('[data-credential="compat:first:0.0"] abbr[data-family=compat]', 'title')).toContain('chat completions (/v1/chat/completions)')
    expect(await page.textContent('dl.legend [data-legend=beta]')).toContain('messages (/v1/messages)')
    await shoot(page, 'issue25-dashboard')
  })

  it('buttons keep their place: Block/Unblock and Remove/Confirm do not change width; rows align', async () => {
    const block = '[data-credential="beta:0"] .credential-actions button >> nth=0'
    const reset = '[data-credential="beta:0"] .credential-actions button >> nth=1'
    const before = await box(reset)
    const blockBefore = await box(block)
    await page.click(block)
    await page.waitForSelector('[data-credential="beta:0"][data-state=blocked]')
    expect(await page.textContent(block)).toBe('Unblock')
    // The table may reflow (the reason appears under the state), but the pair of buttons keeps its shape.
    const [blockAfter, resetAfter] = [await box(block), await box(reset)]
    expect(blockAfter.width).toBe(blockBefore.width)
    expect(resetAfter.x - blockAfter.x).toBe(before.x - blockBefore.x)
    await page.click(block)
    await page.waitForSelector('[data-credential="beta:0"][data-state=ready]')

    await go('providers')
    await page.waitForSelector('[data-entry="first"]')
    expect(await page.textContent('[data-family-note=beta]')).toContain('messages (/v1/messages)')
    const edit = async (entry: string) => box(`[data-entry="${entry}"] button:has-text("Edit")`)
    const editFirst = await edit('first')
    // Every row's buttons sit in one column, however long the row's text.
    expect((await edit('flaky')).x).toBe(editFirst.x)
    expect((await box('[data-entry="0"] button:has-text("Edit")')).x).toBe(editFirst.x)
    await page.click('[data-entry="first"] button:has-text("Remove")')
    expect(await page.textContent('[data-entry="first"] button.danger')).toBe('Confirm')
    expect(await page.getAttribute('[data-entry="first"] button.danger', 'aria-label')).toBe('Confirm: remove')
    expect(await edit('first')).toEqual(editFirst)
  })

  it('the compat provider form: each API-key row lines up (input, proxy choice, Remove)', async () => {
    await go('providers')
    await page.click('button:has-text("Add compat provider")')
    await page.click('form[aria-label="New compat provider"] button:has-text("Add key")')
    await shoot(page, 'issue25-compat-form')
    const input = await box('#field-compat-key-0')
    const select = await box('#field-compat-key-0-proxy-mode')
    const remove = await box('button[aria-label="Remove key 1"]')
    expect(Math.abs(input.y - select.y)).toBeLessThanOrEqual(1)
    expect(Math.abs(input.height - select.height), JSON.stringify({ input, select, remove })).toBeLessThanOrEqual(2)
    // The Remove button is centred on the inputs' line, not hanging below it.
    expect(Math.abs((remove.y + remove.height / 2) - (input.y + input.height / 2))).toBeLessThanOrEqual(2)
    await page.selectOption('#field-compat-key-0-proxy-mode', 'custom')
    expect(Math.abs((await box('button[aria-label="Remove key 1"]')).y - remove.y)).toBeLessThanOrEqual(1)
    await shoot(page, 'issue25-compat-form-proxy-url')
    await page.click('form[aria-label="New compat provider"] button:has-text("Cancel")')
  })

  it('models: every model for api-keys, a named key narrows them and shows its limits', async () => {
    await go('models')
    await page.waitForSelector('[data-model="mock-gpt"]')
    const all = await page.$$eval('[data-model]', rows => rows.map(row => row.getAttribute('data-model')))
    expect(all).toEqual(expect.arrayContaining(['flaky-model', 'mock-claude', 'mock-gpt']))
    expect(all).not.toContain('claude-hidden')
    expect(await page.textContent('[data-model="mock-claude"] abbr[data-family]')).toBe('beta')
    expect(await page.getAttribute('[data-model="mock-claude"] abbr[data-family]', 'title')).toContain('messages')
    expect(await page.textContent('[data-model="mock-gpt"]')).toContain('first: mock-gpt')
    const alias = await page.textContent('[data-model="team-gpt"]')
    expect(alias).toContain('alias of gpt-5.1')
    expect(alias).toContain('400k')
    expect(alias).toContain('128k')
    await shoot(page, 'issue25-models')
    await page.selectOption('#field-models-key', 'team')
    await page.waitForSelector('[data-key-rules=team]')
    await expect.poll(() => page.$$eval('[data-model]', rows => rows.map(row => row.getAttribute('data-model')))).toEqual(['mock-claude', 'mock-gpt'])
    const rules = await page.textContent('[data-key-rules=team]')
    expect(rules).toContain('mock-*')
    expect(rules).toContain('Requests / min10')
    expect(rules).toContain('20,000')
    await shoot(page, 'issue25-models-key')
  })

  it('chat: any model in each client format, streamed and whole, through the proxy, as the signed-in operator', async () => {
    await go('chat')
    // No client key typed: the signed-in session sends (POST /v0/management/client-call).
    expect(await page.inputValue('#field-chat-key')).toBe('')
    await page.fill('#field-chat-model', 'mock-gpt')
    const upstreamCalls = () => world.first.requests.filter(r => r.url === '/v1/chat/completions').length
    for (const [format, stream] of [['chat', true], ['responses', true], ['messages', true], ['generate', true], ['messages', false]] as const) {
      const calls = upstreamCalls()
      await page.click('button:has-text("New conversation")').catch(() => {})
      await page.selectOption('#field-chat-format', format)
      await page.setChecked('#field-chat-stream', stream)
      await page.fill('#field-chat-input', `ping ${format}`)
      await page.click('form[aria-label=Chat] button[type=submit]')
      await page.waitForSelector('[data-chat-outcome="200"]')
      await expect.poll(() => page.textContent('[data-role=assistant]')).toContain(`You said: ping ${format}`)
      expect(await page.textContent('.chat-meta')).toMatch(/HTTP 200 .*total \d+ ms · \d+ in \/ \d+ out tokens/)
      expect(upstreamCalls()).toBe(calls + 1)
      if (stream) expect(JSON.parse(world.first.requests.at(-1)!.body).stream).toBe(true)
    }
    // A second turn carries the first.
    await page.fill('#field-chat-input', 'and again')
    await page.click('form[aria-label=Chat] button[type=submit]')
    await expect.poll(() => page.$$eval('[data-role=assistant]', turns => turns.length)).toBe(2)
    expect(JSON.parse(world.first.requests.at(-1)!.body).messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user'])
    await shoot(page, 'issue25-chat')
    // With a client key typed, the client endpoints are used as that key.
    await page.fill('#field-chat-key', clientKey)
    await page.fill('#field-chat-input', 'with a key')
    await page.click('form[aria-label=Chat] button[type=submit]')
    await expect.poll(() => page.$$eval('[data-role=assistant]', turns => turns.length)).toBe(3)
    // A bad key gets the proxy's own refusal, shown on the page; the failed turn leaves the history.
    const userTurns = await page.$$eval('[data-role=user]', turns => turns.length)
    await page.fill('#field-chat-key', 'sk-wrong')
    await page.fill('#field-chat-input', 'hi')
    await page.click('form[aria-label=Chat] button[type=submit]')
    await page.waitForSelector('[data-chat-outcome="401"]')
    expect(await page.textContent('[data-chat-outcome="401"] [role=alert]')).toBeTruthy()
    expect(await page.$$eval('[data-role=user]', turns => turns.length)).toBe(userTurns)
    expect(await page.inputValue('#field-chat-input')).toBe('hi')
  })

  it('routing settings: a refused form saves none of its settings', async () => {
    await go('routing')
    await page.waitForSelector('#field-strategy')
    const strategy = async () => (await (await api('GET', '/routing/strategy')).json()).strategy
    expect(await strategy()).toBe('round-robin')
    // A value the page checks, and one only the server checks: each refuses the whole form.
    for (const [field, value, reason] of [['#field-logs-max-total-size-mb', 'abc', 'must be a whole number'], ['#field-request-retry', '99999999999999999999', 'must be a whole number'], ['#field-proxy-url', 'ftp://nowhere', 'proxy-url: must be']]) {
      await page.click('button:has-text("Undo changes")')
      await page.selectOption('#field-strategy', 'fill-first')
      await page.fill(field!, value!)
      await page.click('button:has-text("Save settings")')
      await expect.poll(() => page.textContent('form [role=alert]')).toContain(reason)
      expect(await strategy()).toBe('round-robin')
    }
    await page.click('button:has-text("Undo changes")')
  })

  it('signing out forgets the client key typed on the Chat page too', async () => {
    await go('chat')
    await page.fill('#field-chat-key', clientKey)
    await page.fill('#field-chat-model', 'mock-gpt')
    await page.fill('#field-chat-input', 'kept for the tab')
    await page.click('form[aria-label=Chat] button[type=submit]')
    await page.waitForSelector('[data-chat-outcome="200"]')
    expect(await page.evaluate(() => Object.values(sessionStorage))).toContain(clientKey)
    await page.click('button:has-text("Sign out")')
    await page.waitForSelector('#field-management-key')
    expect(await page.evaluate(() => ({ ...sessionStorage }))).toEqual({})
    expect(await page.evaluate(() => localStorage.length)).toBe(0)
  })

  it('no script error on any page', () => {
    expect(pageErrors).toEqual([])
  })
})
