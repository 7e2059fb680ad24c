import { describe, expect, it } from 'vitest'
import { validateConfig } from 'model-proxy/kit/config'
import { redact, secretsOf } from './redact.ts'

describe('secretsOf + redact', () => {
  const config = validateConfig({
    'api-keys': ['sk-client-0123456789'],
    'beta-api-key': [{ 'api-key': 'sk-beta-upstream-0123456789' }],
    'remote-management': { 'secret-key': 'management-secret-0123' },
    partner: { 'upstream-api-key': 'pk-default-0123456789', 'upstream-api-keys': [{ 'upstream-api-key': 'pk-alice-0123456789', 'api-keys': ['sk-client-0123456789'] }] },
  })
  const secrets = secretsOf(config)

  it.each([
    'sk-client-0123456789', 'sk-beta-upstream-0123456789', 'management-secret-0123', 'pk-default-0123456789', 'pk-alice-0123456789',
  ])('masks %s wherever it appears', (secret) => {
    const out = redact(`request failed with key ${secret} (again: ${secret})`, secrets)
    expect(out).not.toContain(secret)
  })

  it.each([
    ['authorization: Bearer abcdef', 'authorization: Bearer [redacted]'],
    ['"x-api-key":"abcdef"', '"x-api-key":"[redacted]"'],
    ['x-goog-api-key=abcdef', 'x-goog-api-key=[redacted]'],
  ])('redacts header-shaped %s', (text, expected) => {
    expect(redact(text, [])).toBe(expected)
  })
})
