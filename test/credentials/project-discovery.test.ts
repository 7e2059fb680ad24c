import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'
import { startManagedProxy, baseYaml, type ManagedProxy } from '../management/helpers.ts'

/** A mock code-assist endpoint: one account already set up, one that must onboard (done on the second poll). */
let codeAssist: MockUpstream
let managed: ManagedProxy
let authDir: string
let onboardPolls = 0

beforeAll(async () => {
  codeAssist = await startMockUpstream(async (request) => {
    const path = new URL(request.url).pathname
    const token = request.headers.get('authorization')
    const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
    if (path === '/v1internal:loadCodeAssist') {
      return token === 'Bearer ready-account'
        ? json({ currentTier: { id: 'free-tier' }, cloudaicompanionProject: 'discovered-1' })
        : json({ allowedTiers: [{ id: 'legacy-tier' }, { id: 'free-tier', isDefault: true }] })
    }
    if (path === '/v1internal:onboardUser') {
      const body = await request.json() as { tierId: string }
      onboardPolls++
      return json(onboardPolls < 2 ? { done: false } : { done: true, response: { cloudaicompanionProject: { id: `onboarded-${body.tierId}` } } })
    }
    return generateMock(request)
  })
  authDir = `/tmp/proxy-project-${process.pid}-${Date.now()}`
  mkdirSync(authDir, { recursive: true })
  const future = new Date(Date.now() + 3_600_000).toISOString()
  writeFileSync(join(authDir, 'ready.json'), JSON.stringify({ type: 'alpha-cli', access_token: 'ready-account', expiry: future, base_url: codeAssist.url }))
  writeFileSync(join(authDir, 'new.json'), JSON.stringify({ type: 'alpha-cli', access_token: 'new-account', expiry: future, base_url: codeAssist.url }))
  managed = await startManagedProxy(`${baseYaml}auth-dir: ${authDir}\n`)
  await managed.proxy.proxy.kernel.services.credentialFiles!.refreshDue()
}, 30_000)
afterAll(async () => {
  await managed.close()
  await codeAssist.close()
  rmSync(authDir, { recursive: true, force: true })
})

describe('alpha-cli project discovery', () => {
  it('loadCodeAssist names the project of a set-up account; it is written into the file', () => {
    expect(JSON.parse(readFileSync(join(authDir, 'ready.json'), 'utf8')).project_id).toBe('discovered-1')
  })

  it('an account without a tier is onboarded on the default tier, polled until done', () => {
    expect(JSON.parse(readFileSync(join(authDir, 'new.json'), 'utf8')).project_id).toBe('onboarded-free-tier')
    expect(onboardPolls).toBe(2)
  })

  it('requests then carry the discovered project in the envelope', async () => {
    const response = await fetch(`${managed.proxy.url}/v1beta/models/gemini-2.5-pro:generateContent`, {
      method: 'POST', headers: { 'x-goog-api-key': 'client-one', 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    })
    expect(response.status).toBe(200)
    const sent = codeAssist.requests.filter(r => r.url === '/v1internal:generateContent').at(-1)!
    expect(['discovered-1', 'onboarded-free-tier']).toContain(JSON.parse(sent.body).project)
  })
})
