import { describe, expect, it } from 'vitest'
import type { Credential, ProviderDef } from 'model-proxy'
import { isAllowedUpstreamHost, isVendorHost, mayCarryCredential } from './upstream-hosts.ts'

/** Hosts as families declare them (ProviderDef.hosts): a plain name, several, a pattern of regional names. */
const family = (name: string, hosts: ProviderDef['hosts']) => [name, { family: name, hosts } as ProviderDef] as const
const providers = new Map([family('beta', ['api.anthropic.com']), family('gamma', ['api.openai.com', 'chatgpt.com']), family('delta', ['aiplatform.googleapis.com', /^[a-z0-9-]+-aiplatform\.googleapis\.com$/]), family('compat', undefined)])

const credential = (family: string, baseUrl: string) => ({ id: `${family}:x`, family, provider: family, baseUrl, headers: {}, prefix: '', priority: 0, models: [], excludedModels: [], attributes: {} }) as Credential
const configured = [credential('compat', 'http://127.0.0.1:4000/v1'), credential('beta', 'https://api.anthropic.com')]

describe('upstream hosts', () => {
  it.each([
    ['127.0.0.1:4000', true],
    ['127.0.0.1:4001', false],
    ['api.anthropic.com', true],
    ['api.openai.com', true],
    ['us-central1-aiplatform.googleapis.com', true],
    ['api.openai.com:8443', false],
    ['169.254.169.254', false],
    ['evil.example', false],
    ['aiplatform.googleapis.com.evil.example', false],
  ])('allowed(%s) = %s', (host, allowed) => {
    expect(isAllowedUpstreamHost(host, configured, providers)).toBe(allowed)
  })

  it.each([
    ['compat', '127.0.0.1:4000', true],
    ['compat', 'api.openai.com', false],
    ['beta', 'api.anthropic.com', true],
    ['beta', '127.0.0.1:4000', false],
  ])('%s credential to %s: %s', (family, host, ok) => {
    const own = configured.find(c => c.family === family)!
    expect(mayCarryCredential(host, own, providers)).toBe(ok)
  })

  it('knows each family\'s vendor hosts', () => {
    expect(isVendorHost('chatgpt.com', providers, 'gamma')).toBe(true)
    expect(isVendorHost('chatgpt.com', providers, 'beta')).toBe(false)
    expect(isVendorHost('europe-west4-aiplatform.googleapis.com', providers, 'delta')).toBe(true)
  })
})
