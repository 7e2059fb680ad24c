import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { stringify } from 'yaml'
import { hasChromium, launch, shoot, openPage } from './harness.ts'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'
import { referenceServers, until } from '../mcp/servers.ts'

/** The MCP servers page in Chromium: a server's health and tools, a tool disabled through it (checked in the YAML). */
describe.skipIf(!hasChromium)('MCP servers page in Chromium', () => {
  let managed: ManagedProxy
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []

  beforeAll(async () => {
    managed = await startManagedProxy(stringify({
      host: '127.0.0.1',
      'remote-management': { 'secret-key': managementSecret },
      'client-keys': [{ key: 'key-ops', name: 'ops' }],
      'mcp-servers': [referenceServers('/tmp')[0], { name: 'gone', command: process.execPath, args: ['-e', 'process.exit(1)'] }],
    }))
    await until(() => managed.proxy.proxy.kernel.services.mcpGateway!.servers.get('everything')!.state === 'up')
    browser = await launch()
    page = await openPage(browser, pageErrors, 10_000)
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await managed?.close()
  })

  it('shows health, lists tools with their keys, and disables a tool', async () => {
    await page.goto(`${managed.proxy.url}/management.html`)
    await page.fill('#field-management-key', managementSecret)
    await page.click('button[type=submit]')
    await page.click('nav a[href="#/mcp"]')
    await page.waitForSelector('[data-server="everything"][data-state="up"]')
    await page.waitForSelector('[data-server="gone"][data-state="down"]')
    await page.click('[data-server="everything"] button:has-text("Tools")')
    await page.waitForSelector('[data-tool="everything__echo"]')
    expect(await page.textContent('[data-tool="everything__echo"]')).toContain('ops')
    // Servers and tools fit at 390 px too: each row's buttons within reach.
    await shoot(page, 'mcp-servers')
    await page.click('[data-tool="everything__echo"] button:has-text("Disable")')
    await expect.poll(() => managed.yaml()['mcp-servers'][0]['disabled-tools']).toEqual(['echo'])
    await page.waitForSelector('[data-tool="everything__echo"] button:has-text("Enable")')
    expect(pageErrors).toEqual([])
  }, 90_000)
})
