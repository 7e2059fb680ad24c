import { describe, expect, it } from 'vitest'
import { clientKeysConfigSchema } from './schema.ts'

describe('client-key-policy', () => {
  it.each([
    [undefined, { 'on-error': 'open', 'unpriced-models': 'refuse' }],
    [{ 'on-error': 'closed' }, { 'on-error': 'closed', 'unpriced-models': 'refuse' }],
    [{ 'unpriced-models': 'allow' }, { 'on-error': 'open', 'unpriced-models': 'allow' }],
  ])('%j -> %j', (policy, expected) => {
    expect(clientKeysConfigSchema.parse(policy === undefined ? {} : { 'client-key-policy': policy })['client-key-policy']).toEqual(expected)
  })
  it.each([
    [{ 'on-error': 'fail' }, 'must be open or closed'],
    [{ 'unpriced-models': 'deny' }, 'must be refuse or allow'],
    [{ 'unpriced-model': 'allow' }, 'unpriced-model'],
  ])('%j is refused with a clear error', (policy, message) => {
    const result = clientKeysConfigSchema.safeParse({ 'client-key-policy': policy })
    expect(result.success).toBe(false)
    expect(JSON.stringify(result.error!.issues)).toContain(message)
  })
})
