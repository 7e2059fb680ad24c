import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, startFamilyProxy, type Family, type FamilyProxy } from '../helpers/family-proxy.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { betaRequestHeaders, mergeBetas } from '../../providers/beta/request-headers.ts'
import type { Credential } from '../../core/provider/credential.ts'

/** Vendor request headers that change what the upstream does travel to that vendor's family, and nowhere else. */

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())

const claudeCodeHeaders = { 'anthropic-version': '2026-10-21', 'anthropic-beta': 'context-management-2025-06-27,effort-2025-11-24' }
const send = (model: string, headers: Record<string, string>) => fetch(`${setup.proxy.url}/v1/messages`, {
  method: 'POST', headers: { 'x-api-key': clientKey, 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
})
const sentHeaders = (family: Family) => setup.upstreams[family].requests.at(-1)!.headers

describe('anthropic-version and anthropic-beta', () => {
  it('reach a beta upstream as the client sent them', async () => {
    expect((await send(familyModels.beta, claudeCodeHeaders)).status).toBe(200)
    expect(sentHeaders('beta')).toMatchObject(claudeCodeHeaders)
  })

  it.each(['compat', 'gamma', 'alpha', 'delta'] as const)('never reach a %s upstream', async (family) => {
    expect((await send(familyModels[family], claudeCodeHeaders)).status).toBe(200)
    expect(Object.keys(sentHeaders(family)).filter(name => name.startsWith('anthropic-'))).toEqual([])
  })

  it('a client that sent none (another format) gets the base version and no betas', async () => {
    await fetch(`${setup.proxy.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: familyModels.beta, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(sentHeaders('beta')['anthropic-version']).toBe('2023-06-01')
    expect(sentHeaders('beta')['anthropic-beta']).toBeUndefined()
  })
})

describe('OpenAI-side headers', () => {
  const codexHeaders = { 'openai-beta': 'responses=v1', 'x-codex-beta-features': 'remote_compaction_v2', 'session-id': 's-1', originator: 'codex_exec', 'x-codex-turn-metadata': '{}' }
  const respond = (model: string) => fetch(`${setup.proxy.url}/v1/responses`, {
    method: 'POST', headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json', ...codexHeaders },
    body: JSON.stringify({ model, input: 'hi' }),
  })

  it('feature gates and the session id reach a gamma upstream; telemetry and the client\'s name do not', async () => {
    expect((await respond(familyModels.gamma)).status).toBe(200)
    const headers = sentHeaders('gamma')
    expect(headers).toMatchObject({ 'openai-beta': 'responses=v1', 'x-codex-beta-features': 'remote_compaction_v2', 'session-id': 's-1' })
    expect(headers.originator).toBeUndefined()
    expect(headers['x-codex-turn-metadata']).toBeUndefined()
  })

  it('OpenAI-Beta alone reaches a compat upstream; nothing reaches the other families', async () => {
    await respond(familyModels.compat)
    expect(sentHeaders('compat')['openai-beta']).toBe('responses=v1')
    expect(sentHeaders('compat')['session-id']).toBeUndefined()
    for (const family of ['beta', 'alpha'] as const) {
      await respond(familyModels[family])
      expect(Object.keys(sentHeaders(family)).filter(name => name in codexHeaders)).toEqual([])
    }
  })
})

describe('merged with what the entry and the credential need', () => {
  let upstream: MockUpstream
  let proxy: TestProxy
  beforeAll(async () => {
    upstream = await startMockUpstream(messagesMock)
    proxy = await startTestProxy({
      'api-keys': [clientKey],
      'beta-api-key': [{ 'api-key': 'up', 'base-url': upstream.url, headers: { 'Anthropic-Beta': 'files-api-2025-04-14' }, models: [{ name: 'mock-claude', alias: 'm' }] }],
    })
  })
  afterAll(async () => { await proxy.close(); await upstream.close() })

  it('the entry\'s configured betas first, the client\'s after, each once', async () => {
    await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': clientKey, 'content-type': 'application/json', 'anthropic-beta': 'effort-2025-11-24, files-api-2025-04-14' },
      body: JSON.stringify({ model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
    })
    const headers = upstream.requests.at(-1)!.headers
    expect(headers['anthropic-beta']).toBe('files-api-2025-04-14,effort-2025-11-24')
    expect(headers['anthropic-version']).toBe('2023-06-01')
  })
})

describe('betaRequestHeaders (pure)', () => {
  const credential = (patch: Partial<Credential>): Credential => ({ id: 'beta:0', family: 'beta', provider: 'beta', baseUrl: 'https://x', headers: {}, prefix: '', priority: 0, models: [], excludedModels: [], attributes: {}, ...patch })

  it.each<[string, Partial<Credential>, Record<string, string>, Record<string, string>]>([
    ['api key, bare client', { apiKey: 'k' }, {}, { 'anthropic-version': '2023-06-01' }],
    ['api key, Claude Code', { apiKey: 'k' }, claudeCodeHeaders, claudeCodeHeaders],
    ['account token adds its own beta after the client\'s', { accessToken: 't' }, { 'anthropic-beta': 'claude-code-20250219' }, { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,oauth-2025-04-20' }],
    ['the entry\'s version when the client sent none', { apiKey: 'k', headers: { 'anthropic-version': '2024-01-01' } }, {}, { 'anthropic-version': '2024-01-01' }],
  ])('%s', (_name, patch, client, expected) => {
    expect(betaRequestHeaders(credential(patch), new Headers(client))).toEqual(expected)
  })

  it('mergeBetas trims, drops empties and repeats', () => {
    expect(mergeBetas(' a, b', undefined, 'b,,c', null)).toBe('a,b,c')
  })
})
