import { describe, expect, it } from 'vitest'
import { endpointLabel } from './endpoint-label.ts'

describe('endpointLabel', () => {
  it.each([
    ['/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions'],
    ['/v1beta/models/gemini-2.5-pro:generateContent', '/v1beta/models/**', '/v1beta/models/{model}:generateContent'],
    ['/v1beta/models/x:streamGenerateContent', '/v1beta/models/**', '/v1beta/models/{model}:streamGenerateContent'],
    ['/api/provider/alpha/v1beta/models/m:generateContent', '/api/provider/alpha/v1beta/models/**', '/api/provider/alpha/v1beta/models/{model}:generateContent'],
    ['/v1beta/models/a/b/c:generateContent', '/v1beta/models/**', '/v1beta/models/**'],
    ['/v1/messages', undefined, '/v1/messages'],
  ])('%s (route %s) -> %s', (path, route, label) => {
    expect(endpointLabel(path, route)).toBe(label)
  })
})
