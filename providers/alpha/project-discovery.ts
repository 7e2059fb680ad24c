import { loadUndici } from 'model-proxy/kit/http'
import type { CredentialFilePrepare } from 'model-proxy'
import { maskValues } from 'model-proxy/kit/access'

const metadata = { ideType: 'IDE_UNSPECIFIED', platform: 'PLATFORM_UNSPECIFIED', pluginType: 'GEMINI' }
const onboardPollMs = 2000
const onboardAttempts = 15

async function call(baseUrl: string, token: string, method: string, body: unknown): Promise<Record<string, any>> {
  const response = await loadUndici().request(`${baseUrl}/v1internal:${method}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body), headersTimeout: 15_000, bodyTimeout: 15_000,
  })
  const text = await response.body.text()
  if (response.statusCode >= 400) throw new Error(`${method} answered ${response.statusCode}: ${maskValues(text, [token]).slice(0, 200)}`)
  return JSON.parse(text)
}

const projectId = (value: unknown) => typeof value === 'string' ? value : (value as { id?: string } | undefined)?.id

/**
 * The code-assist project of a signed-in account, found the way the vendor's CLI does: loadCodeAssist
 * names it when the account is set up; otherwise onboardUser on the default tier (polled until done).
 */
export async function discoverProject(baseUrl: string, token: string, sleep = (ms: number) => new Promise(r => setTimeout(r, ms))): Promise<string> {
  const loaded = await call(baseUrl, token, 'loadCodeAssist', { metadata })
  const known = projectId(loaded.cloudaicompanionProject)
  if (loaded.currentTier && known) return known
  const tier = (loaded.allowedTiers as Array<{ id: string; isDefault?: boolean }> | undefined)?.find(t => t.isDefault)?.id ?? 'free-tier'
  for (let attempt = 0; attempt < onboardAttempts; attempt++) {
    const operation = await call(baseUrl, token, 'onboardUser', { tierId: tier, metadata, ...(known && { cloudaicompanionProject: known }) })
    const found = projectId(operation.response?.cloudaicompanionProject)
    if (operation.done && found) return found
    await sleep(onboardPollMs)
  }
  throw new Error('onboarding did not finish: no code-assist project')
}

/** A signed-in alpha-cli account needs its code-assist project before its first request: found and written into the file. */
export const projectDiscovery: CredentialFilePrepare = {
  name: 'project discovery',
  needed: file => !file.project_id && !!file.access_token,
  run: async (file, baseUrl) => ({ project_id: await discoverProject(baseUrl, file.access_token ?? '') }),
  done: fields => `code-assist project ${String(fields.project_id)}`,
}
