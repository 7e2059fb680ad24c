import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { parse } from 'yaml'
import type { Browser, Page } from 'playwright-core'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { misfits } from './fit.ts'
import { startMockOpenAI, startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'

export const chromiumPath = '/usr/bin/chromium'
export const hasChromium = existsSync(chromiumPath)
export const artifacts = join(process.cwd(), 'test-artifacts', 'panel')
export const managementKey = 'panel-secret-key-1'
export const clientKey = 'sk-panel-client-0001'

export interface PanelWorld {
  proxy: TestProxy; dir: string; configPath: string; authDir: string; logsDir: string
  first: MockUpstream; added: MockUpstream; flaky: MockUpstream; oauth: MockUpstream
  close(): Promise<void>
}

/** A mock OAuth server that approves at once: /authorize redirects back with a code, /token checks PKCE. */
async function startOAuth(): Promise<MockUpstream> {
  const challenges = new Map<string, string>()
  return startMockUpstream(async (request) => {
    const url = new URL(request.url)
    if (url.pathname === '/authorize') {
      const code = `code-${challenges.size + 1}`
      challenges.set(code, url.searchParams.get('code_challenge') ?? '')
      const back = new URL(url.searchParams.get('redirect_uri')!)
      back.searchParams.set('code', code)
      back.searchParams.set('state', url.searchParams.get('state')!)
      return new Response(null, { status: 302, headers: { location: back.toString() } })
    }
    const params = new URLSearchParams(JSON.parse(await request.text()))
    const ok = createHash('sha256').update(params.get('code_verifier') ?? '').digest('base64url') === challenges.get(params.get('code') ?? '')
    if (!ok) return new Response(JSON.stringify({ error: 'invalid_grant' }), { status: 400 })
    const idToken = `e30.${Buffer.from(JSON.stringify({ email: 'dev@example.test' })).toString('base64url')}.sig`
    return new Response(JSON.stringify({ access_token: 'signed-in-token', refresh_token: 'r', expires_in: 3600, id_token: idToken }), { headers: { 'content-type': 'application/json' } })
  })
}

/** The proxy the panel drives: a YAML file with comments, management on, two credentials, mocks for every call. */
export async function startPanelWorld(): Promise<PanelWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-panel-'))
  const authDir = join(dir, 'auths')
  const logsDir = join(dir, 'logs')
  mkdirSync(authDir)
  const first = await startMockOpenAI()
  const added = await startMockOpenAI()
  const flaky = await startMockUpstream(() => new Response(JSON.stringify({ error: { message: 'rate limit exceeded', type: 'rate_limit' } }), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '300' } }))
  const oauth = await startOAuth()
  const yaml = `# panel test config: this comment must survive every save
host: 127.0.0.1
port: 8317
api-keys:
  - ${clientKey}
remote-management:
  secret-key: ${managementKey}
usage-statistics-enabled: true
logging-to-file: true
logs-dir: ${logsDir}
auth-dir: ${authDir}
request-retry: 0
compat-provider:
  - name: first
    base-url: ${first.url}/v1
    api-key-entries:
      - api-key: sk-upstream-first-0000000001
    models:
      - name: mock-gpt
        alias: mock-gpt
  - name: flaky
    base-url: ${flaky.url}/v1
    api-key-entries:
      - api-key: sk-upstream-flaky-0000000002
    models:
      - name: flaky-model
beta-api-key:
  - api-key: beta-key-0123456789abcdef
    base-url: ${first.url}
    models:
      - name: mock-claude
    excluded-models: ["claude-*"]
oauth-clients:
  beta:
    authorize-url: ${oauth.url}/authorize
    token-url: ${oauth.url}/token
    client-id: test-beta
`
  const configPath = join(dir, 'config.yaml')
  writeFileSync(configPath, yaml)
  const proxy = await startTestProxy(parse(yaml), [], undefined, configPath)
  return {
    proxy, dir, configPath, authDir, logsDir, first, added, flaky, oauth,
    async close() {
      await proxy.close()
      await Promise.all([first.close(), added.close(), flaky.close(), oauth.close()])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A client request through the proxy, as an SDK would send it. */
export function chat(world: PanelWorld, model: string, key = clientKey) {
  return fetch(`${world.proxy.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  })
}

/**
 * Screenshots at both widths the panel must work at, into test-artifacts/panel/; at each width the
 * page must fit its window (test/panel/fit.ts), whatever state the test left it in.
 */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true })
  const misfit: string[] = []
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.waitForTimeout(50)
    await page.screenshot({ path: join(artifacts, `${name}-${width}.png`), fullPage: true })
    misfit.push(...(await misfits(page)).map(line => `${width} px: ${line}`))
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  if (misfit.length) throw new Error(`${name}: does not fit its window\n${misfit.join('\n')}`)
}

export async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  return chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
}

/** A 1280x900 page whose uncaught script errors go to `errors` (each test asserts there were none). */
export async function openPage(browser: Browser, errors: string[], timeoutMs = 8000): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  page.setDefaultTimeout(timeoutMs)
  page.on('pageerror', error => errors.push(error.message))
  return page
}

/** Opens the panel at `url` (a hash may name the page) and signs in with the management key. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(url)
  await page.fill('#field-management-key', key)
  await page.click('button[type=submit]')
}
